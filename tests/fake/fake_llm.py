#!/usr/bin/env python3
"""A fake model server for hq-agent's tests: OpenAI Chat Completions,
Anthropic Messages, Gemini generateContent and Ollama /api/chat, on
127.0.0.1, playing a scripted scenario.

    fake_llm.py SCENARIO.json [--log REQUESTS.jsonl]

Prints the port it listens on, then serves until killed. The protocol is
chosen by the request path; streaming by what the request asks for.

A scenario is {"turns": [TURN...], "repeat_last": false}; each request
takes the next turn. A TURN is one of
  {"reply": {"text": "...", "calls": [{"name", "args": {..} | "args_text": "..", "id"}]}}
      rendered in the request's own wire format. Options beside "reply":
      "no_ids", "same_index", "fragment": N (argument fragment size),
      "finish_reason", "max_tokens_cut" (the last call is cut off),
      "signature" (Gemini thoughtSignature, checked on the next request),
      "crlf" (CRLF line ends), "drop" (close the connection mid-stream),
      "overloaded" (a mid-stream error event after some output),
      "repeat_calls": N (the reply's calls, N times over, each its own id;
      {{i}} in their arguments becomes the call's number from 0)
  {"huge": {"text" | "args" | "line": N, "piece": BYTES}, "gzip": true}
      a stream made up as it is sent, never held whole: N bytes of
      answer text, in events of "piece" bytes (64 KiB); one hq_testtool
      call whose argument fragments of "piece" bytes add up to N
      (openai, anthropic); or one line of N bytes that never ends.
      "gzip" sends it gzip-encoded (1 GiB of text in 1 MiB pieces is
      about 1 MB on the wire). Sending stops quietly when the client
      hangs up.
  {"fixture": "NAME.sse"}       bytes of $HQ_FIXTURES/llm/NAME (tests/fixtures/llm
                                when unset), verbatim
  {"replay": "NAME.json", "index": N}   a recorded exchange's response
  {"status": 429, "headers": {..}, "body": {..} | "text"}
In a reply's text, {{name}} is replaced by the field `name` of the first
JSON row of the last tool result in the request (so an end-to-end test's
answer carries a number that really came from the tool). Any turn may
carry "delay" (seconds before answering) and "split"
(write the body in pieces of that many bytes).

Every request is appended to the log as {"n","path","headers","body"}.
POST /_fake/scenario with a scenario as its body replaces the scenario and
starts it from its first turn (one server can serve a whole test file).
Standard library only.
"""
import json
import os
import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = {"n": 0, "signature": None}
LOCK = threading.Lock()


def fixtures_dir():
    d = os.environ.get("HQ_FIXTURES")
    if not d:
        d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
    return os.path.join(d, "llm")


def protocol_of(path):
    if path.startswith("/api/chat"):
        return "ollama"
    if "/v1beta/models/" in path:
        return "gemini"
    if path.endswith("/v1/messages") or path.startswith("/v1/messages"):
        return "anthropic"
    if path.endswith("/chat/completions"):
        return "openai"
    return None


def args_text(call):
    if "args_text" in call:
        return call["args_text"]
    return json.dumps(call.get("args", {}), separators=(",", ":"))


def pieces(s, n):
    if not s:
        return [""]
    n = max(1, n)
    return [s[i:i + n] for i in range(0, len(s), n)]


# ---------- OpenAI ----------

def openai_events(turn, reply):
    cid = "chatcmpl-fake"
    def chunk(delta, finish=None, **extra):
        c = {"id": cid, "object": "chat.completion.chunk", "created": 1727346176,
             "model": "fake-model", "system_fingerprint": "fp_fake",
             "choices": [{"index": 0, "delta": delta, "logprobs": None,
                          "finish_reason": finish}]}
        c.update(extra)
        return "data: " + json.dumps(c, separators=(",", ":")) + "\n\n"
    out = [chunk({"role": "assistant", "content": None})]
    for p in pieces(reply.get("text", ""), 7):
        if p:
            out.append(chunk({"content": p}))
    calls = reply.get("calls", [])
    for i, call in enumerate(calls):
        idx = 0 if turn.get("same_index") else i
        first = {"index": idx, "type": "function",
                 "function": {"name": call["name"], "arguments": ""}}
        if not turn.get("no_ids"):
            first["id"] = call.get("id") or "call_fake%d" % i
        out.append(chunk({"tool_calls": [first]}))
        frags = pieces(args_text(call), turn.get("fragment", 5))
        if turn.get("max_tokens_cut") and i == len(calls) - 1:
            frags = frags[:max(1, len(frags) // 2)]
        for f in frags:
            out.append(chunk({"tool_calls": [{"index": idx, "function": {"arguments": f}}]}))
    finish = turn.get("finish_reason") or (
        "length" if turn.get("max_tokens_cut") else ("tool_calls" if calls else "stop"))
    out.append(chunk({}, finish))
    u = {"id": cid, "object": "chat.completion.chunk", "created": 1727346176,
         "model": "fake-model", "choices": [],
         "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}
    out.append("data: " + json.dumps(u, separators=(",", ":")) + "\n\n")
    out.append("data: [DONE]\n\n")
    return out


def openai_body(turn, reply):
    calls = reply.get("calls", [])
    msg = {"role": "assistant", "content": reply.get("text") or None, "refusal": None}
    if calls:
        msg["tool_calls"] = []
        for i, call in enumerate(calls):
            tc = {"type": "function", "function": {"name": call["name"], "arguments": args_text(call)}}
            if not turn.get("no_ids"):
                tc["id"] = call.get("id") or "call_fake%d" % i
            msg["tool_calls"].append(tc)
    finish = turn.get("finish_reason") or ("tool_calls" if calls else "stop")
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1699896916,
            "model": "fake-model",
            "choices": [{"index": 0, "message": msg, "logprobs": None, "finish_reason": finish}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}


def openai_check(body):
    """every tool_call_id answered, as the real API insists (else 400)"""
    want = []
    for m in body.get("messages", []):
        if m.get("role") == "assistant":
            for tc in m.get("tool_calls") or []:
                want.append(tc.get("id"))
        if m.get("role") == "tool" and m.get("tool_call_id") in want:
            want.remove(m.get("tool_call_id"))
    if want:
        return "An assistant message with 'tool_calls' must be followed by tool messages " \
               "responding to each 'tool_call_id'. Missing: %s" % ", ".join(map(str, want))
    return None


# ---------- Anthropic ----------

def anthropic_events(turn, reply):
    def ev(name, data):
        return "event: %s\ndata: %s\n\n" % (name, json.dumps(data, separators=(",", ":")))
    out = [ev("message_start", {"type": "message_start", "message": {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 1}}})]
    idx = 0
    if reply.get("text"):
        out.append(ev("content_block_start", {"type": "content_block_start", "index": idx,
                                              "content_block": {"type": "text", "text": ""}}))
        out.append(ev("ping", {"type": "ping"}))
        for p in pieces(reply["text"], 7):
            out.append(ev("content_block_delta", {"type": "content_block_delta", "index": idx,
                                                  "delta": {"type": "text_delta", "text": p}}))
        out.append(ev("content_block_stop", {"type": "content_block_stop", "index": idx}))
        idx += 1
    if turn.get("overloaded"):
        out.append(ev("error", {"type": "error", "error": {"type": "overloaded_error",
                                                           "message": "Overloaded"}}))
        return out
    calls = reply.get("calls", [])
    for i, call in enumerate(calls):
        out.append(ev("content_block_start", {"type": "content_block_start", "index": idx,
                      "content_block": {"type": "tool_use", "id": call.get("id") or "toolu_fake%d" % i,
                                        "name": call["name"], "input": {}, "caller": {"type": "direct"}}}))
        frags = [""] + pieces(args_text(call), turn.get("fragment", 5))
        cut = turn.get("max_tokens_cut") and i == len(calls) - 1
        if cut:
            frags = frags[:max(2, len(frags) // 2)]
        for f in frags:
            out.append(ev("content_block_delta", {"type": "content_block_delta", "index": idx,
                          "delta": {"type": "input_json_delta", "partial_json": f}}))
        if not cut:
            out.append(ev("content_block_stop", {"type": "content_block_stop", "index": idx}))
        idx += 1
    stop = "max_tokens" if turn.get("max_tokens_cut") else ("tool_use" if calls else "end_turn")
    out.append(ev("message_delta", {"type": "message_delta",
                                    "delta": {"stop_reason": stop, "stop_sequence": None},
                                    "usage": {"output_tokens": 20}}))
    out.append(ev("message_stop", {"type": "message_stop"}))
    return out


def anthropic_body(turn, reply):
    content = []
    if reply.get("text"):
        content.append({"type": "text", "text": reply["text"]})
    for i, call in enumerate(reply.get("calls", [])):
        content.append({"type": "tool_use", "id": call.get("id") or "toolu_fake%d" % i,
                        "name": call["name"], "input": call.get("args", {}),
                        "caller": {"type": "direct"}})
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
            "content": content,
            "stop_reason": "tool_use" if reply.get("calls") else "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 100, "output_tokens": 20}}


def anthropic_check(headers, body):
    if not headers.get("x-api-key"):
        return 401, {"type": "error", "error": {"type": "authentication_error",
                                                "message": "x-api-key header is required"}}
    if not headers.get("anthropic-version"):
        return 400, {"type": "error", "error": {"type": "invalid_request_error",
                                                "message": "anthropic-version: header is required"}}
    msgs = body.get("messages", [])
    for i, m in enumerate(msgs):
        if m.get("role") != "assistant" or not isinstance(m.get("content"), list):
            continue
        ids = [b["id"] for b in m["content"] if b.get("type") == "tool_use"]
        if not ids:
            continue
        nxt = msgs[i + 1] if i + 1 < len(msgs) else None
        got = []
        if nxt and isinstance(nxt.get("content"), list):
            for b in nxt["content"]:
                if b.get("type") != "tool_result":
                    break
                got.append(b.get("tool_use_id"))
        if sorted(got) != sorted(ids):
            return 400, {"type": "error", "error": {"type": "invalid_request_error",
                         "message": "messages.%d: `tool_use` ids were found without `tool_result` "
                                    "blocks immediately after: %s" % (i, ", ".join(ids))}}
    return None


# ---------- Gemini ----------

def gemini_parts(turn, reply):
    parts = []
    if reply.get("text"):
        parts.append({"text": reply["text"]})
    for i, call in enumerate(reply.get("calls", [])):
        p = {"functionCall": {"name": call["name"], "args": call.get("args", {})}}
        if i == 0 and turn.get("signature"):
            p["thoughtSignature"] = turn["signature"]
        parts.append(p)
    return parts


def gemini_body(turn, reply, parts=None, final=True):
    cand = {"content": {"parts": parts if parts is not None else gemini_parts(turn, reply),
                        "role": "model"}, "index": 0}
    if final:
        cand["finishReason"] = turn.get("finish_reason", "STOP")
    return {"candidates": [cand],
            "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20,
                              "totalTokenCount": 120},
            "modelVersion": "fake-model", "responseId": "fake"}


def gemini_events(turn, reply):
    out = []
    text = reply.get("text", "")
    chunks = [p for p in pieces(text, 9) if p] if text else []
    calls_parts = [p for p in gemini_parts(turn, reply) if "functionCall" in p]
    for c in chunks:
        out.append(gemini_body(turn, reply, [{"text": c}], final=False))
    out.append(gemini_body(turn, reply, calls_parts if calls_parts else [{"text": ""}], final=True))
    return ["data: " + json.dumps(o, separators=(",", ":")) + "\n\n" for o in out]


def gemini_check(headers, body, path):
    if not headers.get("x-goog-api-key") and "key=" not in path:
        return 403, {"error": {"code": 403, "message": "Method doesn't allow unregistered callers. "
                               "Please use API Key or other form of API consumer identity.",
                               "status": "PERMISSION_DENIED"}}
    sig = STATE.get("signature")
    if sig:
        seen = False
        for c in body.get("contents", []):
            for p in c.get("parts", []):
                if "functionCall" in p and (p.get("thoughtSignature") == sig or
                                            p.get("thought_signature") == sig):
                    seen = True
        if not seen:
            return 400, {"error": {"code": 400, "message": "Function call is missing a "
                                   "thought_signature in functionCall parts.",
                                   "status": "INVALID_ARGUMENT"}}
    return None


# ---------- Ollama ----------

def ollama_lines(turn, reply):
    out = []
    base = {"model": "fake-model", "created_at": "2025-07-07T20:32:53.844124Z"}
    for p in pieces(reply.get("text", ""), 7):
        if p:
            out.append(dict(base, message={"role": "assistant", "content": p}, done=False))
    calls = reply.get("calls", [])
    if calls:
        tcs = []
        for i, call in enumerate(calls):
            tc = {"function": {"index": i, "name": call["name"], "arguments": call.get("args", {})}}
            if call.get("id") and not turn.get("no_ids"):
                tc["id"] = call["id"]
            tcs.append(tc)
        out.append(dict(base, message={"role": "assistant", "content": "", "tool_calls": tcs},
                        done=False))
    out.append(dict(base, message={"role": "assistant", "content": ""}, done=True,
                    done_reason="stop", total_duration=1000, prompt_eval_count=100,
                    eval_count=20))
    return [json.dumps(o, separators=(",", ":")) + "\n" for o in out]


def ollama_body(turn, reply):
    lines = ollama_lines(turn, reply)
    msg = {"role": "assistant", "content": reply.get("text", "")}
    for ln in lines:
        o = json.loads(ln)
        if o["message"].get("tool_calls"):
            msg["tool_calls"] = o["message"]["tool_calls"]
    return {"model": "fake-model", "created_at": "2025-07-07T20:32:53.844124Z", "message": msg,
            "done_reason": "stop", "done": True, "prompt_eval_count": 100, "eval_count": 20}


def last_tool_result(proto, body):
    """the text of the last tool result the request carries, or "" """
    try:
        if proto == "anthropic":
            for m in reversed(body.get("messages", [])):
                for b in reversed(m.get("content") if isinstance(m.get("content"), list) else []):
                    if b.get("type") == "tool_result":
                        c = b.get("content")
                        return c if isinstance(c, str) else "".join(x.get("text", "") for x in c)
        elif proto == "gemini":
            for c in reversed(body.get("contents", [])):
                for p in reversed(c.get("parts", [])):
                    if "functionResponse" in p:
                        r = p["functionResponse"]["response"]
                        return r.get("output", r.get("error", ""))
        else:
            for m in reversed(body.get("messages", [])):
                if m.get("role") == "tool":
                    return m.get("content", "")
    except (AttributeError, KeyError, TypeError):
        pass
    return ""


def fill_template(reply, proto, body):
    text = reply.get("text", "")
    if "{{" not in text:
        return reply
    row = {}
    for line in last_tool_result(proto, body).splitlines():
        try:
            row = json.loads(line)
            break
        except ValueError:
            continue
    for k, v in (row.items() if isinstance(row, dict) else []):
        text = text.replace("{{%s}}" % k, str(v))
    return dict(reply, text=text)


# ---------- huge streams, made up as they are sent ----------

def huge_pieces(total, piece, make):
    """make(n) for pieces of n bytes adding up to total; equal pieces are
    the same object, so that gzip_stream compresses one only once"""
    full = make(piece) if total >= piece else None
    for _ in range(total // piece):
        yield full
    if total % piece:
        yield make(total % piece)


def huge_text(proto, n, piece):
    def ev(t):
        t = "x" * (t - 1) + " "
        if proto == "openai":
            return openai_events({}, {})[0].replace('"content":null', '"content":"%s"' % t)
        if proto == "anthropic":
            return "event: content_block_delta\ndata: %s\n\n" % json.dumps(
                {"type": "content_block_delta", "index": 0,
                 "delta": {"type": "text_delta", "text": t}}, separators=(",", ":"))
        if proto == "gemini":
            return "data: " + json.dumps(gemini_body({}, {}, [{"text": t}], final=False),
                                         separators=(",", ":")) + "\n\n"
        return json.dumps({"model": "fake-model", "message": {"role": "assistant", "content": t},
                           "done": False}, separators=(",", ":")) + "\n"
    head, tail = {
        "openai": lambda e: (e[:1], e[1:]),
        "anthropic": lambda e: (e[:2], e[3:]),
        "gemini": lambda e: ([], e),
        "ollama": lambda e: ([], e),
    }[proto](events_of(proto, {}, {"text": " "} if proto == "anthropic" else {}))
    return head, huge_pieces(n, piece, lambda k: ev(k).encode()), tail


def huge_args(proto, n, piece):
    if proto == "openai":
        e, key = openai_events({}, {"calls": [{"name": "hq_testtool", "args_text": ""}]}), "arguments"
    elif proto == "anthropic":
        e, key = anthropic_events({}, {"calls": [{"name": "hq_testtool", "args_text": ""}]}), "partial_json"
    else:
        raise ValueError("huge args: openai and anthropic only")
    # e[2] is the call's one (empty) argument fragment
    def frag(t):
        return e[2].replace('"%s":""' % key, '"%s":%s' % (key, json.dumps(t)))
    return (e[:2] + [frag('{"metrics":["')],
            huge_pieces(n, piece, lambda k: frag("x" * k).encode()), [frag('"]}')] + e[3:])


def huge_line(proto, n, piece):
    head = "" if proto == "ollama" else "data: "
    head += '{"choices":[{"delta":{"content":"'
    return [head], huge_pieces(n, piece, lambda k: b"x" * k), []


def events_of(proto, turn, reply):
    return {"openai": openai_events, "anthropic": anthropic_events,
            "gemini": gemini_events, "ollama": ollama_lines}[proto](turn, reply)


def huge_stream(proto, huge, piece):
    kind = next(k for k in ("text", "args", "line") if k in huge)
    head, middle, tail = {"text": huge_text, "args": huge_args, "line": huge_line}[kind](
        proto, huge[kind], piece)
    for e in head:
        yield e.encode()
    yield from middle
    for e in tail:
        yield e.encode()


def gzip_stream(pieces):
    """gzip of the pieces, compressing each once: after a full flush the
    deflate stream starts afresh, so equal pieces compress alike"""
    yield b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    crc = size = 0
    last = done = None
    for p in pieces:
        if p is not last:
            last, done = p, c.compress(p) + c.flush(zlib.Z_FULL_FLUSH)
        crc = zlib.crc32(p, crc)
        size += len(p)
        yield done
    yield c.flush(zlib.Z_FINISH) + struct.pack("<II", crc & 0xffffffff, size & 0xffffffff)


# ---------- server ----------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *a):
        pass

    def send(self, status, body, ctype="application/json", headers=None, split=0):
        data = body if isinstance(body, bytes) else (
            body.encode() if isinstance(body, str) else json.dumps(body).encode())
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, str(v))
        self.end_headers()
        self.write_split(data, split)

    def write_split(self, data, split):
        if split and split > 0:
            for i in range(0, len(data), split):
                self.wfile.write(data[i:i + split])
                self.wfile.flush()
        else:
            self.wfile.write(data)
            self.wfile.flush()

    def stream(self, events, ctype, turn):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Connection", "close")
        self.end_headers()
        data = "".join(events)
        if turn.get("crlf"):
            data = data.replace("\n", "\r\n")
        raw = data.encode()
        if turn.get("drop"):
            raw = raw[:len(raw) // 2]
        self.write_split(raw, turn.get("split", 0))
        if turn.get("drop"):
            self.connection.shutdown(2)
        self.close_connection = True

    def stream_huge(self, proto, turn):
        ctype = "application/x-ndjson" if proto == "ollama" else "text/event-stream"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        if turn.get("gzip"):
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Connection", "close")
        self.end_headers()
        pieces = huge_stream(proto, turn["huge"], turn["huge"].get("piece", 1 << 16))
        if turn.get("gzip"):
            pieces = gzip_stream(pieces)
        try:
            for p in pieces:
                self.wfile.write(p)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        if self.path == "/_fake/scenario":
            global SCENARIO
            with LOCK:
                SCENARIO = body if isinstance(body, dict) else {"turns": []}
                STATE.update(n=0, signature=None)
            return self.send(200, {"ok": True})
        with LOCK:
            n = STATE["n"]
            STATE["n"] += 1
            turns = SCENARIO["turns"]
            if n < len(turns):
                turn = turns[n]
            elif SCENARIO.get("repeat_last") and turns:
                turn = turns[-1]
            else:
                turn = {"status": 500, "body": {"error": {"message": "fake_llm: scenario has no "
                        "turn %d" % (n + 1), "type": "server_error", "param": None, "code": None}}}
            if LOG:
                LOG.write(json.dumps({"n": n + 1, "path": self.path, "headers": headers,
                                      "body": body}) + "\n")
                LOG.flush()
        if turn.get("delay"):
            time.sleep(turn["delay"])
        if body is None:
            return self.send(400, {"error": {"message": "invalid JSON body"}})
        proto = protocol_of(self.path.split("?")[0])
        if proto is None:
            return self.send(404, {"error": {"message": "no such endpoint: " + self.path}})
        if "fixture" in turn:
            with open(os.path.join(fixtures_dir(), turn["fixture"]), "rb") as f:
                data = f.read()
            self.send_response(200)
            self.send_header("Content-Type", turn.get("content_type", "text/event-stream"))
            self.send_header("Connection", "close")
            self.end_headers()
            self.write_split(data, turn.get("split", 0))
            self.close_connection = True
            return
        if "replay" in turn:
            with open(os.path.join(fixtures_dir(), turn["replay"])) as f:
                rec = json.load(f)[turn.get("index", 0)]["response"]
            hdrs = {k: v for k, v in rec.get("headers", {}).items()
                    if k.lower() in ("retry-after", "retry-after-ms", "x-should-retry",
                                     "request-id")}
            hdrs.update(turn.get("headers", {}))
            return self.send(rec["status_code"], rec["body"], headers=hdrs)
        if "status" in turn:
            return self.send(turn["status"], turn.get("body", ""), headers=turn.get("headers"))
        # protocol rules the real servers enforce
        bad = None
        if proto == "anthropic":
            bad = anthropic_check(headers, body)
        elif proto == "gemini":
            bad = gemini_check(headers, body, self.path)
        elif proto == "openai":
            msg = openai_check(body)
            if msg:
                bad = (400, {"error": {"message": msg, "type": "invalid_request_error",
                                       "param": "messages", "code": None}})
        if bad:
            return self.send(bad[0], bad[1])
        if "huge" in turn:
            return self.stream_huge(proto, turn)
        reply = fill_template(turn.get("reply", {"text": ""}), proto, body)
        if turn.get("repeat_calls"):
            reply = dict(reply, calls=[
                dict(c, id="call_fake%d" % i, args_text=args_text(c).replace("{{i}}", str(i)))
                for i, c in enumerate(reply["calls"] * turn["repeat_calls"])])
        STATE["signature"] = turn.get("signature") if proto == "gemini" and reply.get("calls") \
            else STATE.get("signature")
        if proto == "openai":
            if body.get("stream"):
                ev = openai_events(turn, reply)
                if turn.get("overloaded"):
                    ev = ev[:2] + ['data: {"error":{"message":"The server is overloaded",'
                                   '"type":"server_error","param":null,"code":null}}\n\n']
                return self.stream(ev, "text/event-stream", turn)
            return self.send(200, openai_body(turn, reply))
        if proto == "anthropic":
            if body.get("stream"):
                return self.stream(anthropic_events(turn, reply), "text/event-stream", turn)
            return self.send(200, anthropic_body(turn, reply))
        if proto == "gemini":
            if "streamGenerateContent" in self.path:
                return self.stream(gemini_events(turn, reply), "text/event-stream", turn)
            return self.send(200, gemini_body(turn, reply))
        if body.get("stream", True):
            lines = ollama_lines(turn, reply)
            if turn.get("overloaded"):
                lines = lines[:1] + ['{"error":"an error was encountered while running the model"}\n']
            return self.stream(lines, "application/x-ndjson", turn)
        return self.send(200, ollama_body(turn, reply))


def main():
    global SCENARIO, LOG
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(__doc__)
        return 0
    with open(args[0]) as f:
        SCENARIO = json.load(f)
    LOG = None
    if "--log" in args:
        LOG = open(args[args.index("--log") + 1], "a")
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


SCENARIO = {"turns": []}
LOG = None

if __name__ == "__main__":
    sys.exit(main())
