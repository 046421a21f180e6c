/* testutil.h: the cmocka preamble every unit test includes. */
#ifndef AGENTVIEW_TESTUTIL_H
#define AGENTVIEW_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* Compare a counted byte string with a C string literal. */
#define assert_bytes_equal(p, n, lit) \
	do { \
		assert_int_equal((n), sizeof(lit) - 1); \
		assert_memory_equal((p), (lit), sizeof(lit) - 1); \
	} while (0)

#endif
