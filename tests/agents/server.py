#!/usr/bin/env python3
"""A model server for the real-CLI tests (make test-agents): plays one scripted
scenario of tests/agents/scenarios.json to Claude Code, Gemini CLI, Codex or
Copilot CLI.

It listens on 127.0.0.1 only, on a port the kernel picks, and writes that
port to --port-file (and stdout). It speaks, by the request's path:
  Anthropic Messages   POST /v1/messages (stream: SSE, or one JSON message)
  Gemini               POST /v1beta/models/M:streamGenerateContent?alt=sse
                       and :generateContent, :countTokens
  OpenAI Responses     POST /v1/responses (SSE, for Codex)
  OpenAI Chat          POST /v1/chat/completions (SSE, for Copilot CLI)
Each model request gets the scenario turn its history asks for (turn k
when it holds k turns of the model; see scenarios.json); any other request
(token counts, model lists, telemetry, HEAD checks) gets a harmless answer;
as the proxy of a CLI given HTTPS_PROXY, it refuses every CONNECT.
Every request is logged, body and all, as one JSON line of --log. It stops
after --max-requests requests or --max-seconds seconds, whichever first.
Only Python's standard library is used."""

import argparse
import http.server
import json
import os
import socket
import sys
import threading
import time

SSE_PAUSE = 0.005  # seconds between events, so that deltas arrive apart


class Script:
	"""The scenario and how far each conversation of it has got."""

	def __init__(self, scenarios, name, workdir):
		self.name = name
		self.scen = scenarios[name]
		self.workdir = workdir
		self.lock = threading.Lock()
		self.asked = {}  # (conversation, turn) -> times asked

	def setup(self):
		"""Makes the scenario's files in the work dir."""
		for name, text in self.scen.get("setup", {}).items():
			with open(os.path.join(self.workdir, name), "w", encoding="utf-8") as f:
				f.write(text)

	def conversation(self, first_user_text):
		"""The conversation a request belongs to: a sub-agent's when its
		marker is in the first user message, else main."""
		for key in self.scen:
			if key.isupper() and key in first_user_text:
				return key
		return "main"

	def turn(self, vendor, conv, k):
		"""Turn k of conversation conv as vendor plays it (the last turn when
		k is past it), and the error to give this time, if any."""
		turns = self.scen.get(conv + "." + vendor) or self.scen[conv]
		k = min(k, len(turns) - 1)
		with self.lock:
			n = self.asked.get((conv, k), 0) + 1
			self.asked[(conv, k)] = n
		t = turns[k]
		err = t.get("error")
		if err and "times" in t and n > t["times"]:
			err = None
		return k, t, err


def path_in(workdir, p):
	"""p made absolute against the work dir."""
	return p if p.startswith("/") else os.path.join(workdir, p)


# --- Anthropic Messages ------------------------------------------------------

def claude_call(c, workdir, tools):
	"""A vendor-neutral call as Claude Code's tool name and input."""
	if c["tool"] == "shell":
		return "Bash", {"command": c["command"], "description": "Run " + c["command"]}
	if c["tool"] == "read":
		return "Read", {"file_path": path_in(workdir, c["path"])}
	if c["tool"] == "edit":
		return "Edit", {"file_path": path_in(workdir, c["path"]),
		                "old_string": c["old"], "new_string": c["new"]}
	if c["tool"] == "write":
		return "Write", {"file_path": path_in(workdir, c["path"]), "content": c["content"]}
	if c["tool"] == "task":
		name = "Task" if "Task" in tools or "Agent" not in tools else "Agent"
		return name, {"description": c["description"], "prompt": c["prompt"],
		              "subagent_type": "general-purpose",
		              "run_in_background": bool(c.get("background"))}
	if c["tool"] == "raw":
		return c["name"], c["input"]
	raise ValueError(c["tool"])


def claude_blocks(turn, conv, k, workdir, tools):
	"""The content blocks of a turn: (type, fields, deltas)."""
	out = []
	if "think" in turn:
		out.append(("thinking", {"thinking": "", "signature": ""},
		            [("thinking_delta", "thinking", w) for w in words(turn["think"])]
		            + [("signature_delta", "signature", "c2lnbmF0dXJl")]))
	if "text" in turn:
		out.append(("text", {"text": ""},
		            [("text_delta", "text", w) for w in words(turn["text"])]))
	for i, c in enumerate(turn.get("calls", [])):
		name, inp = claude_call(c, workdir, tools)
		js = json.dumps(inp)
		cid = "toolu_01AgentView%s%d%d" % (conv_tag(conv), k, i)
		out.append(("tool_use", {"id": cid, "name": name, "input": {}},
		            [("input_json_delta", "partial_json", p) for p in halves(js)]))
	return out


def claude_message(turn, conv, k, model, workdir, tools):
	"""The whole message of a turn, for a request without stream."""
	content = []
	for typ, fields, deltas in claude_blocks(turn, conv, k, workdir, tools):
		b = dict(type=typ, **fields)
		if typ == "tool_use":
			b["input"] = json.loads("".join(d[2] for d in deltas))
		else:
			for kind, field, piece in deltas:
				b[field] = b.get(field, "") + piece
		content.append(b)
	stop = "tool_use" if turn.get("calls") else "end_turn"
	return {"id": "msg_01AgentView%s%d" % (conv_tag(conv), k), "type": "message",
	        "role": "assistant", "model": model, "content": content,
	        "stop_reason": stop, "stop_sequence": None,
	        "usage": {"input_tokens": 100 + 10 * k, "cache_creation_input_tokens": 0,
	                  "cache_read_input_tokens": 0, "output_tokens": 20 + k}}


def claude_events(turn, conv, k, model, workdir, tools):
	"""The SSE events (name, data) of a turn."""
	msg = claude_message(turn, conv, k, model, workdir, tools)
	start = dict(msg, content=[], stop_reason=None)
	start["usage"] = dict(msg["usage"], output_tokens=1)
	ev = [("message_start", {"type": "message_start", "message": start})]
	for i, (typ, fields, deltas) in enumerate(claude_blocks(turn, conv, k, workdir, tools)):
		ev.append(("content_block_start", {"type": "content_block_start", "index": i,
		                                   "content_block": dict(type=typ, **fields)}))
		if i == 0:
			ev.append(("ping", {"type": "ping"}))
		for kind, field, piece in deltas:
			ev.append(("content_block_delta", {"type": "content_block_delta", "index": i,
			                                   "delta": {"type": kind, field: piece}}))
		ev.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
	ev.append(("message_delta", {"type": "message_delta",
	                             "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None},
	                             "usage": {"output_tokens": msg["usage"]["output_tokens"]}}))
	ev.append(("message_stop", {"type": "message_stop"}))
	return ev


def claude_first_user_text(body):
	"""The text of the first user message of a Messages request."""
	for m in body.get("messages", []):
		if m.get("role") == "user":
			return text_of(m.get("content"))
	return ""


def claude_turns(body):
	"""How many assistant turns a Messages request carries."""
	return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


CLAUDE_ERRORS = {
	"http500": (500, {}, {"type": "error", "error": {"type": "api_error",
	                                                   "message": "Internal server error"}}),
	"http429": (429, {"retry-after": "1", "anthropic-ratelimit-requests-remaining": "0"},
	            {"type": "error", "error": {
	                "type": "rate_limit_error",
	                "message": "Number of request tokens has exceeded your per-minute rate limit"}}),
}


# --- Gemini ------------------------------------------------------------------

def gemini_call(c, workdir, tools):
	"""A vendor-neutral call as Gemini CLI's function name and args."""
	if c["tool"] == "shell":
		return "run_shell_command", {"command": c["command"], "description": "Run " + c["command"]}
	if c["tool"] == "read":
		return "read_file", {param_of(tools, "read_file", ("file_path", "absolute_path")):
		                     path_in(workdir, c["path"])}
	if c["tool"] == "edit":
		return "replace", {param_of(tools, "replace", ("file_path", "absolute_path")):
		                   path_in(workdir, c["path"]),
		                   "old_string": c["old"], "new_string": c["new"],
		                   "instruction": "Replace " + c["old"] + " with " + c["new"]}
	if c["tool"] == "write":
		return "write_file", {param_of(tools, "write_file", ("file_path", "absolute_path")):
		                      path_in(workdir, c["path"]), "content": c["content"]}
	if c["tool"] == "task":
		return "invoke_agent", {"agent_name": "generalist", "prompt": c["prompt"]}
	if c["tool"] == "done":
		return "complete_task", {"result": {"response": c["result"]}}
	if c["tool"] == "raw":
		return c["name"], c["input"]
	raise ValueError(c["tool"])


def gemini_chunks(turn, k, model, workdir, tools, half=False):
	"""The SSE data objects of a turn: the text a few words a chunk, then
	the calls and the finish reason with usage."""
	chunks = []
	usage = {"promptTokenCount": 100 + 10 * k, "candidatesTokenCount": 20 + k,
	         "totalTokenCount": 120 + 11 * k}
	if "think" in turn:
		chunks.append([{"text": turn["think"], "thought": True}])
	pieces = words(turn.get("text", ""))
	if half:
		pieces = pieces[:len(pieces) // 2]
	for i in range(0, len(pieces), 3):
		chunks.append([{"text": "".join(pieces[i:i + 3])}])
	calls = [{"functionCall": dict(zip(("name", "args"), gemini_call(c, workdir, tools)))}
	         for c in turn.get("calls", [])]
	if calls:
		chunks.append(calls)
	out = []
	for i, parts in enumerate(chunks):
		cand = {"content": {"parts": parts, "role": "model"}, "index": 0}
		d = {"candidates": [cand], "modelVersion": model, "responseId": "resp-av-%d" % k}
		if i == len(chunks) - 1 and not half:
			cand["finishReason"] = "STOP"
			d["usageMetadata"] = usage
		out.append(d)
	return out


def gemini_first_user_text(body):
	"""The text of the first user content of a Gemini request."""
	for c in body.get("contents", []):
		if c.get("role") == "user":
			return " ".join(p.get("text", "") for p in c.get("parts", []))
	return ""


def gemini_turns(body):
	"""How many model turns a Gemini request carries."""
	return sum(1 for c in body.get("contents", []) if c.get("role") == "model")


def gemini_tools(body):
	"""The function declarations of a Gemini request, by name."""
	out = {}
	for t in body.get("tools", []) or []:
		for f in t.get("functionDeclarations", []) or []:
			out[f.get("name")] = f
	return out


GEMINI_ERRORS = {
	"http500": (500, {}, {"error": {"code": 500, "message": "Internal error encountered.",
	                                "status": "INTERNAL"}}),
	"http429": (429, {"retry-after": "1"},
	            {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
	                       "message": "Resource has been exhausted (e.g. check quota).",
	                       "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
	                                    "retryDelay": "1s"}]}}),
}


# --- OpenAI Responses (Codex) -------------------------------------------------

def codex_call(c, workdir, tools):
	"""A vendor-neutral call as Codex's tool: (name, kind, arguments or
	input); kind is function or custom (a free-form tool like apply_patch)."""
	if c["tool"] == "shell":
		args = {"cmd": c["command"], "yield_time_ms": 10000}
		if c.get("escalate"):
			# Run outside the sandbox: what makes Codex ask first.
			args.update(sandbox_permissions="require_escalated",
			            justification="To " + c["command"])
		return "exec_command", "function", json.dumps(args)
	if c["tool"] == "read":
		return "exec_command", "function", json.dumps({"cmd": "cat " + c["path"], "yield_time_ms": 10000})
	if c["tool"] in ("edit", "write"):
		if c["tool"] == "edit":
			patch = ("*** Begin Patch\n*** Update File: %s\n@@\n-%s\n+%s\n*** End Patch\n"
			         % (c["path"], c["old"], c["new"]))
		else:
			patch = ("*** Begin Patch\n*** Add File: %s\n%s*** End Patch\n"
			         % (c["path"], "".join("+" + l + "\n" for l in c["content"].splitlines())))
		t = tools.get("apply_patch", {})
		if t.get("type") == "custom":
			return "apply_patch", "custom", patch
		return "apply_patch", "function", json.dumps({"input": patch})
	if c["tool"] == "task":
		return "spawn_agent", "function", json.dumps({"task_name": "sub", "message": c["prompt"],
		                                              "fork_turns": "none"})
	if c["tool"] == "wait":
		return "wait_agent", "function", json.dumps({"timeout_ms": 10000})
	if c["tool"] == "raw":
		return c["name"], "function", json.dumps(c["input"])
	raise ValueError(c["tool"])


def codex_events(turn, conv, k, model, workdir, tools, half=False):
	"""The SSE events (name, data) of a turn."""
	rid = "resp_av%s%d" % (conv_tag(conv), k)
	ev = []
	seq = [0]

	def add(name, **fields):
		d = {"type": name, "sequence_number": seq[0]}
		d.update(fields)
		seq[0] += 1
		ev.append((name, d))

	resp = {"id": rid, "object": "response", "created_at": 1700000000, "status": "in_progress",
	        "model": model, "output": []}
	add("response.created", response=resp)
	add("response.in_progress", response=resp)
	output = []
	if "think" in turn:
		i = len(output)
		item = {"id": "rs_av%d%d" % (k, i), "type": "reasoning", "summary": []}
		add("response.output_item.added", output_index=i, item=item)
		add("response.reasoning_summary_part.added", item_id=item["id"], output_index=i,
		    summary_index=0, part={"type": "summary_text", "text": ""})
		for w in words(turn["think"]):
			add("response.reasoning_summary_text.delta", item_id=item["id"], output_index=i,
			    summary_index=0, delta=w)
		add("response.reasoning_summary_text.done", item_id=item["id"], output_index=i,
		    summary_index=0, text=turn["think"])
		part = {"type": "summary_text", "text": turn["think"]}
		add("response.reasoning_summary_part.done", item_id=item["id"], output_index=i,
		    summary_index=0, part=part)
		done = dict(item, summary=[part])
		add("response.output_item.done", output_index=i, item=done)
		output.append(done)
	if "text" in turn:
		i = len(output)
		mid = "msg_av%d%d" % (k, i)
		item = {"id": mid, "type": "message", "status": "in_progress", "role": "assistant",
		        "content": []}
		add("response.output_item.added", output_index=i, item=item)
		add("response.content_part.added", item_id=mid, output_index=i, content_index=0,
		    part={"type": "output_text", "text": "", "annotations": []})
		pieces = words(turn["text"])
		for w in pieces[:len(pieces) // 2] if half else pieces:
			add("response.output_text.delta", item_id=mid, output_index=i, content_index=0,
			    delta=w)
		if half:
			return ev
		add("response.output_text.done", item_id=mid, output_index=i, content_index=0,
		    text=turn["text"])
		part = {"type": "output_text", "text": turn["text"], "annotations": []}
		add("response.content_part.done", item_id=mid, output_index=i, content_index=0,
		    part=part)
		done = dict(item, status="completed", content=[part])
		add("response.output_item.done", output_index=i, item=done)
		output.append(done)
	for j, c in enumerate(turn.get("calls", [])):
		i = len(output)
		name, kind, args = codex_call(c, workdir, tools)
		fid = "fc_av%s%d%d" % (conv_tag(conv), k, j)
		cid = "call_av%s%d%d" % (conv_tag(conv), k, j)
		if kind == "custom":
			item = {"id": fid, "type": "custom_tool_call", "status": "in_progress",
			        "call_id": cid, "name": name, "input": ""}
			add("response.output_item.added", output_index=i, item=item)
			for p in halves(args):
				add("response.custom_tool_call_input.delta", item_id=fid, output_index=i,
				    delta=p)
			add("response.custom_tool_call_input.done", item_id=fid, output_index=i,
			    input=args)
			done = dict(item, status="completed", input=args)
		else:
			item = {"id": fid, "type": "function_call", "status": "in_progress",
			        "call_id": cid, "name": name, "arguments": ""}
			if tools.get(name, {}).get("namespace"):
				item["namespace"] = tools[name]["namespace"]
			add("response.output_item.added", output_index=i, item=item)
			for p in halves(args):
				add("response.function_call_arguments.delta", item_id=fid, output_index=i,
				    delta=p)
			add("response.function_call_arguments.done", item_id=fid, output_index=i,
			    arguments=args)
			done = dict(item, status="completed", arguments=args)
		add("response.output_item.done", output_index=i, item=done)
		output.append(done)
	usage = {"input_tokens": 100 + 10 * k, "input_tokens_details": {"cached_tokens": 0},
	         "output_tokens": 20 + k, "output_tokens_details": {"reasoning_tokens": 0},
	         "total_tokens": 120 + 11 * k}
	add("response.completed", response=dict(resp, status="completed", output=output,
	                                         usage=usage))
	return ev


def codex_first_user_text(body):
	"""The text of the first user message of a Responses request that is
	not the CLI's own context (AGENTS.md, environment), or of the message
	that gives a sub-agent its task."""
	for it in body.get("input", []):
		if it.get("type") == "agent_message":  # a sub-agent's task
			return text_of(it.get("content"))
		if it.get("type") == "message" and it.get("role") == "user":
			t = text_of(it.get("content"))
			if "<environment_context>" in t or "AGENTS.md" in t or "<permissions" in t:
				continue
			return t
	return ""


def codex_turns(body):
	"""How many model turns a Responses request carries: runs of the
	model's items (messages of the assistant, reasoning, calls) between
	the others (tool outputs, user messages)."""
	n, inrun = 0, False
	for it in body.get("input", []):
		mine = it.get("role") == "assistant" or it.get("type") in (
			"reasoning", "function_call", "custom_tool_call", "local_shell_call")
		if mine and not inrun:
			n += 1
		inrun = mine
	return n


def codex_tools(body):
	"""The tools of a Responses request, by name, those of a namespace
	with the namespace's name under "namespace"."""
	out = {}
	for t in body.get("tools", []) or []:
		if t.get("type") == "namespace":
			for u in t.get("tools", []):
				out[u.get("name")] = dict(u, namespace=t.get("name"))
		elif t.get("name"):
			out[t["name"]] = t
	return out


CODEX_ERRORS = {
	"http500": (500, {}, {"error": {"message": "The server had an error while processing your request.",
	                                "type": "server_error", "param": None, "code": None}}),
	"http429": (429, {"retry-after": "1", "x-ratelimit-remaining-requests": "0"},
	            {"error": {"message": "Rate limit reached for gpt-5.5 on requests per min (RPM): "
	                                  "Limit 1, Used 1, Requested 1. Please try again in 1s.",
	                       "type": "requests", "param": None, "code": "rate_limit_exceeded"}}),
}


# --- OpenAI Chat Completions (Copilot CLI) -----------------------------------

def copilot_call(c, workdir, tools):
	"""A vendor-neutral call as Copilot CLI's tool name and arguments."""
	if c["tool"] == "shell":
		return "bash", {"command": c["command"], "description": "Run " + c["command"],
		                "mode": "sync"}
	if c["tool"] == "read":
		return "view", {"path": path_in(workdir, c["path"])}
	if c["tool"] == "edit":
		return "edit", {"path": path_in(workdir, c["path"]), "old_str": c["old"],
		                "new_str": c["new"]}
	if c["tool"] == "write":
		return "create", {"path": path_in(workdir, c["path"]), "file_text": c["content"]}
	if c["tool"] == "task":
		return "task", {"name": "sub", "description": c["description"], "prompt": c["prompt"],
		                "agent_type": "general-purpose",
		                "mode": "background" if c.get("background") else "sync"}
	if c["tool"] == "raw":
		return c["name"], c["input"]
	raise ValueError(c["tool"])


def copilot_chunks(turn, conv, k, model, workdir, tools, half=False):
	"""The SSE data of a turn as chat.completion.chunk objects: the role,
	the text a few words a chunk, each call's name then its arguments in
	two pieces, the finish reason, the usage; then [DONE]."""
	cid = "chatcmpl-av%s%d" % (conv_tag(conv), k)
	out = []

	def add(delta, finish=None):
		out.append({"id": cid, "object": "chat.completion.chunk", "created": 1700000000,
		            "model": model, "choices": [{"index": 0, "delta": delta,
		                                         "finish_reason": finish}]})
	add({"role": "assistant", "content": ""})
	pieces = words(turn.get("text", ""))
	if half:
		pieces = pieces[:len(pieces) // 2]
	for i in range(0, len(pieces), 3):
		add({"content": "".join(pieces[i:i + 3])})
	if half:
		return out
	for j, c in enumerate(turn.get("calls", [])):
		name, args = copilot_call(c, workdir, tools)
		js = json.dumps(args)
		add({"tool_calls": [{"index": j, "id": "call_av%s%d%d" % (conv_tag(conv), k, j),
		                     "type": "function", "function": {"name": name, "arguments": ""}}]})
		for p in halves(js):
			add({"tool_calls": [{"index": j, "function": {"arguments": p}}]})
	add({}, "tool_calls" if turn.get("calls") else "stop")
	out.append({"id": cid, "object": "chat.completion.chunk", "created": 1700000000,
	            "model": model, "choices": [],
	            "usage": {"prompt_tokens": 100 + 10 * k, "completion_tokens": 20 + k,
	                      "total_tokens": 120 + 11 * k,
	                      "prompt_tokens_details": {"cached_tokens": 0}}})
	out.append("[DONE]")
	return out


def copilot_first_user_text(body):
	"""The text of the first user message of a chat request."""
	for m in body.get("messages", []):
		if m.get("role") == "user":
			return text_of(m.get("content"))
	return ""


def copilot_turns(body):
	"""How many assistant turns a chat request carries."""
	return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


def copilot_tools(body):
	"""The functions of a chat request, by name."""
	return {t.get("function", {}).get("name"): t.get("function", {})
	        for t in body.get("tools", []) or [] if isinstance(t, dict)}


COPILOT_ERRORS = {
	"http500": (500, {}, {"error": {"message": "The server had an error while processing your request.",
	                                "type": "server_error", "param": None, "code": None}}),
	"http429": (429, {"retry-after": "1", "x-ratelimit-remaining-requests": "0"},
	            {"error": {"message": "Rate limit reached for requests per min (RPM): "
	                                  "Limit 1, Used 1, Requested 1. Please try again in 1s.",
	                       "type": "requests", "param": None, "code": "rate_limit_exceeded"}}),
}


# --- helpers -----------------------------------------------------------------

def words(s):
	"""s cut after each space: the deltas of a streamed text."""
	out, cur = [], ""
	for ch in s:
		cur += ch
		if ch == " ":
			out.append(cur)
			cur = ""
	if cur:
		out.append(cur)
	return out


def halves(s):
	"""s in two pieces, as a streamed JSON argument arrives."""
	return [s[:len(s) // 2], s[len(s) // 2:]] if len(s) > 1 else [s]


def conv_tag(conv):
	"""A short tag of a conversation for ids: M for main, S for a side
	request, else the sub-agent's marker's first letter (SUBAGENT: S,
	FOREGROUND: F, BACKGROUND: B), so that no two calls of a run share an
	id."""
	return "M" if conv == "main" else "S" if conv == "side" else conv[0]


def text_of(content):
	"""The text of a message content: a string, or blocks with text (Codex
	passes a sub-agent's task as "encrypted_content", in clear here)."""
	if isinstance(content, str):
		return content
	if isinstance(content, list):
		return " ".join(b.get("text", "") or b.get("encrypted_content", "")
		                for b in content if isinstance(b, dict))
	return ""


def param_of(tools, name, choices):
	"""Which of choices tool `name` declares as a parameter (the first when
	it declares none of them)."""
	decl = tools.get(name, {})
	props = (decl.get("parametersJsonSchema") or decl.get("parameters") or {}).get("properties", {})
	for c in choices:
		if c in props:
			return c
	return choices[0]


# --- HTTP --------------------------------------------------------------------

class Handler(http.server.BaseHTTPRequestHandler):
	"""One request: logged, then answered by path."""

	protocol_version = "HTTP/1.1"
	server_version = "agentview-test-model/1"

	def log_message(self, fmt, *args):
		pass

	def do_HEAD(self):
		self.serve(b"")

	def do_GET(self):
		self.serve(b"")

	def do_DELETE(self):
		self.serve(b"")

	def do_CONNECT(self):
		self.serve(b"")

	def do_POST(self):
		n = int(self.headers.get("content-length") or 0)
		self.serve(self.rfile.read(n) if n else b"")

	def serve(self, raw):
		srv = self.server
		with srv.lock:
			srv.count += 1
			num = srv.count
		body = None
		try:
			body = json.loads(raw) if raw else None
		except ValueError:
			pass
		rec = {"n": num, "t": round(time.time() - srv.started, 3), "method": self.command,
		       "path": self.path,
		       "headers": {k.lower(): v for k, v in self.headers.items()
		                   if k.lower() not in ("authorization", "x-api-key", "x-goog-api-key")},
		       "body": body if body is not None else raw.decode("utf-8", "replace")}
		try:
			rec["answer"] = self.route(body if isinstance(body, dict) else {})
		except (BrokenPipeError, ConnectionResetError) as e:
			rec["answer"] = "client went away: %s" % e
		except Exception as e:  # noqa: BLE001  a bug here must show in the log
			rec["answer"] = "server error: %r" % e
			try:
				self.send_json(500, {"error": {"message": "test server bug: %r" % e}})
			except OSError:
				pass
		srv.log(rec)
		if num >= srv.max_requests:
			srv.log({"n": num, "stop": "max-requests %d reached" % srv.max_requests})
			threading.Thread(target=srv.shutdown, daemon=True).start()

	def route(self, body):
		"""Answers the request; returns what was answered, for the log."""
		p = self.path.split("?")[0]
		script = self.server.script
		if self.command == "POST" and p.endswith("/v1/messages"):
			tools = [t.get("name") for t in body.get("tools", []) or []]
			if not tools or not (script.scen.get("main") or script.scen.get("main.claude")):
				return self.side("claude", body)
			conv = script.conversation(claude_first_user_text(body))
			k, turn, err = script.turn("claude", conv, claude_turns(body))
			model = body.get("model", "claude")
			wd = script.workdir
			held = self.pace(turn, err, conv, k)
			if held:
				return held
			if err in CLAUDE_ERRORS:
				return self.error(CLAUDE_ERRORS[err], conv, k)
			if not body.get("stream"):
				self.send_json(200, claude_message(turn, conv, k, model, wd, tools), cut=err == "cut")
				return "%s turn %d (json%s)" % (conv, k, ", cut" if err == "cut" else "")
			ev = claude_events(turn, conv, k, model, wd, tools)
			if err in ("cut", "eof"):
				return self.sse(ev[:len(ev) // 2], cut=err == "cut",
				                note="%s turn %d %s" % (conv, k, err))
			return self.sse(ev, note="%s turn %d" % (conv, k))
		if self.command == "POST" and (":streamGenerateContent" in p or ":generateContent" in p):
			tools = gemini_tools(body)
			model = p.split("/models/")[-1].split(":")[0]
			if "run_shell_command" not in tools:
				return self.side("gemini", body)
			conv = script.conversation(gemini_first_user_text(body))
			k, turn, err = script.turn("gemini", conv, gemini_turns(body))
			held = self.pace(turn, err, conv, k)
			if held:
				return held
			if err in GEMINI_ERRORS:
				return self.error(GEMINI_ERRORS[err], conv, k)
			chunks = gemini_chunks(turn, k, model, script.workdir, tools,
			                       half=err in ("cut", "eof"))
			if ":generateContent" in p:
				self.send_json(200, merge_gemini(chunks), cut=err == "cut")
				return "%s turn %d (json%s)" % (conv, k, ", cut" if err == "cut" else "")
			return self.sse([(None, c) for c in chunks], cut=err == "cut",
			                note="%s turn %d%s" % (conv, k, " " + err if err else ""))
		if ":countTokens" in p:
			self.send_json(200, {"totalTokens": 100})
			return "countTokens"
		if self.command == "POST" and p.endswith("/v1/responses"):
			tools = codex_tools(body)
			if "exec_command" not in tools and "shell" not in tools:
				return self.side("codex", body)
			conv = script.conversation(codex_first_user_text(body))
			k, turn, err = script.turn("codex", conv, codex_turns(body))
			held = self.pace(turn, err, conv, k)
			if held:
				return held
			if err in CODEX_ERRORS:
				return self.error(CODEX_ERRORS[err], conv, k)
			ev = codex_events(turn, conv, k, body.get("model", "gpt"), script.workdir, tools,
			                  half=err in ("cut", "eof"))
			return self.sse(ev, cut=err == "cut",
			                note="%s turn %d%s" % (conv, k, " " + err if err else ""))
		if self.command == "POST" and p.endswith("/chat/completions"):
			tools = copilot_tools(body)
			if not tools or not body.get("stream"):
				return self.side("copilot", body)
			conv = script.conversation(copilot_first_user_text(body))
			k, turn, err = script.turn("copilot", conv, copilot_turns(body))
			held = self.pace(turn, err, conv, k)
			if held:
				return held
			if err in COPILOT_ERRORS:
				return self.error(COPILOT_ERRORS[err], conv, k)
			chunks = copilot_chunks(turn, conv, k, body.get("model", "gpt"), script.workdir,
			                        tools, half=err in ("cut", "eof"))
			return self.sse([(None, c) for c in chunks], cut=err == "cut",
			                note="%s turn %d%s" % (conv, k, " " + err if err else ""))
		if p.endswith("/count_tokens"):
			self.send_json(200, {"input_tokens": 100})
			return "count_tokens"
		if p.endswith("/models"):
			self.send_json(200, {"object": "list", "data": [], "models": []})
			return "empty model list"
		if self.command == "HEAD":
			self.send_head(200, "text/plain", 0)
			return "HEAD ok"
		if self.command == "CONNECT":
			# A CLI told to use this server as its proxy (HTTPS_PROXY): a
			# host beyond loopback, refused.
			self.send_head(403, "text/plain", 0)
			return "proxy CONNECT refused"
		self.send_json(200, {})
		return "empty object"

	def side(self, vendor, body):
		"""A model request outside the script (a title, a check by a small
		model): a short harmless reply in the vendor's shape."""
		text = "ok"
		if vendor == "gemini":
			schema = (body.get("generationConfig") or {}).get("responseJsonSchema") or \
			         (body.get("generationConfig") or {}).get("responseSchema")
			if schema:
				text = json.dumps({"reasoning": "The model answered.", "next_speaker": "user"})
			chunk = {"candidates": [{"content": {"parts": [{"text": text}], "role": "model"},
			                         "finishReason": "STOP", "index": 0}],
			         "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1,
			                           "totalTokenCount": 11}}
			if "alt=sse" in self.path:
				return self.sse([(None, chunk)], note="side request (gemini sse)")
			self.send_json(200, chunk)
			return "side request (gemini json)"
		if vendor == "claude":
			turn = {"text": text}
			if body.get("stream"):
				return self.sse(claude_events(turn, "side", 0, body.get("model", "claude"), "", []),
				                note="side request (claude sse)")
			self.send_json(200, claude_message(turn, "side", 0, body.get("model", "claude"), "", []))
			return "side request (claude json)"
		if vendor == "copilot":
			chunks = copilot_chunks({"text": text}, "side", 0, body.get("model", "gpt"), "", {})
			if body.get("stream"):
				return self.sse([(None, c) for c in chunks], note="side request (copilot sse)")
			self.send_json(200, {"id": "chatcmpl-side", "object": "chat.completion",
			                     "created": 1700000000, "model": body.get("model", "gpt"),
			                     "choices": [{"index": 0, "finish_reason": "stop",
			                                  "message": {"role": "assistant", "content": text}}],
			                     "usage": chunks[-2]["usage"]})
			return "side request (copilot json)"
		return self.sse(codex_events({"text": text}, "side", 0, body.get("model", "gpt"), "", {}),
		                note="side request (codex sse)")

	def pace(self, turn, err, conv, k):
		"""Waits the turn's delay (at most 10 s), said in the log first (a
		test reads the CLI's state meanwhile); for a hang, holds the request
		unanswered (at most 60 s) and drops it, and says so."""
		delay = min(float(turn.get("delay", 0)), 10)
		if delay > 0:
			self.server.log({"holding": "%s turn %d" % (conv, k), "seconds": delay})
			time.sleep(delay)
		if err != "hang":
			return None
		time.sleep(min(float(turn.get("hang", 30)), 60))
		self.cut()
		return "%s turn %d: held unanswered, then dropped" % (conv, k)

	def error(self, spec, conv, k):
		"""An HTTP error answer with the vendor's body and headers."""
		status, headers, body = spec
		self.send_json(status, body, headers)
		return "%s turn %d: HTTP %d" % (conv, k, status)

	def send_head(self, status, ctype, length, headers=None):
		self.send_response(status)
		self.send_header("content-type", ctype)
		if length is not None:
			self.send_header("content-length", str(length))
		for k, v in (headers or {}).items():
			self.send_header(k, v)
		self.send_header("request-id", "req_av%d" % self.server.count)
		self.send_header("connection", "close")
		self.end_headers()
		self.close_connection = True

	def send_json(self, status, obj, headers=None, cut=False):
		"""obj as a JSON answer; when cut, only its first half is sent
		before the connection is closed."""
		data = json.dumps(obj).encode()
		self.send_head(status, "application/json", len(data), headers)
		self.wfile.write(data[:len(data) // 2] if cut else data)
		self.wfile.flush()
		if cut:
			self.cut()

	def sse(self, events, cut=False, note=""):
		"""Events as an SSE body in chunked encoding; when cut, the socket is
		closed in the middle of a chunk, as a dropped connection is seen."""
		self.send_response(200)
		self.send_header("content-type", "text/event-stream")
		self.send_header("cache-control", "no-cache")
		self.send_header("transfer-encoding", "chunked")
		self.send_header("connection", "close")
		self.end_headers()
		self.close_connection = True
		for name, data in events:
			d = data if isinstance(data, str) else json.dumps(data)
			s = ("event: %s\n" % name if name else "") + "data: %s\n\n" % d
			b = s.encode()
			self.wfile.write(b"%x\r\n%s\r\n" % (len(b), b))
			self.wfile.flush()
			time.sleep(SSE_PAUSE)
		if cut:
			self.wfile.write(b"400\r\nevent: ")
			self.wfile.flush()
			self.cut()
			return note + " (connection cut after %d events)" % len(events)
		self.wfile.write(b"0\r\n\r\n")
		self.wfile.flush()
		return note + " (%d events)" % len(events)


	def cut(self):
		"""Drops the connection: the client sees its answer end early."""
		time.sleep(0.05)
		try:
			self.connection.shutdown(socket.SHUT_RDWR)
		except OSError:
			pass


def merge_gemini(chunks):
	"""The chunks of a streamed Gemini answer as one generateContent answer."""
	parts = [p for c in chunks for p in c["candidates"][0]["content"]["parts"]]
	last = chunks[-1]
	cand = dict(last["candidates"][0], content={"parts": parts, "role": "model"})
	return dict(last, candidates=[cand])


class Server(http.server.ThreadingHTTPServer):
	"""The HTTP server with the script, the log and the bounds."""

	daemon_threads = True

	def __init__(self, script, logpath, max_requests):
		super().__init__(("127.0.0.1", 0), Handler)
		self.script = script
		self.lock = threading.Lock()
		self.count = 0
		self.max_requests = max_requests
		self.started = time.time()
		self.logf = open(logpath, "a", encoding="utf-8") if logpath else None

	def log(self, rec):
		if not self.logf:
			return
		with self.lock:
			self.logf.write(json.dumps(rec) + "\n")
			self.logf.flush()


def main():
	"""Parses the options, serves until a bound is reached."""
	here = os.path.dirname(os.path.abspath(__file__))
	ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
	ap.add_argument("--scenario", required=True)
	ap.add_argument("--scenarios", default=os.path.join(here, "scenarios.json"))
	ap.add_argument("--workdir", default=os.getcwd())
	ap.add_argument("--port-file")
	ap.add_argument("--log")
	ap.add_argument("--max-requests", type=int, default=40)
	ap.add_argument("--max-seconds", type=float, default=120)
	a = ap.parse_args()
	with open(a.scenarios, encoding="utf-8") as f:
		scenarios = json.load(f)
	if a.scenario not in scenarios or a.scenario.startswith("_"):
		sys.exit("server.py: no scenario %r" % a.scenario)
	script = Script(scenarios, a.scenario, a.workdir)
	script.setup()
	srv = Server(script, a.log, a.max_requests)
	port = srv.server_address[1]
	if a.port_file:
		with open(a.port_file + ".tmp", "w") as f:
			f.write("%d\n" % port)
		os.rename(a.port_file + ".tmp", a.port_file)
	print(port, flush=True)

	def bound():
		time.sleep(a.max_seconds)
		srv.log({"stop": "max-seconds %g reached" % a.max_seconds})
		os._exit(3)
	threading.Thread(target=bound, daemon=True).start()
	srv.serve_forever()
	srv.server_close()


if __name__ == "__main__":
	main()
