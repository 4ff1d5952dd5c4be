// A local mock of the Anthropic Messages API for Claude Code's print mode
// (run by tests/integration/test_mcp_clients.sh). Usage:
//   node claude_mock.mjs PORT_FILE LOG_FILE
// It listens on 127.0.0.1 (a free port, written to PORT_FILE) and answers
// POST /v1/messages (Claude Code adds ?beta=true and streams: server-sent
// events) as a model that drives amc: the conversation that offers amc's MCP
// tools (mcp__amc__*) gets
//   1. tool_use mcp__amc__observe {device: "sim"}
//   2. after observe's tool_result: tool_use mcp__amc__act, a tap on the
//      Contacts element whose id it read from that result, with a reason
//   3. after act's tool_result: the final text.
// Every other request (a title, a quota probe) gets a short text. The mock
// checks the round trip from the model's side: observe's tool_result must
// carry amc's scene text and an image block, act's the new screen. LOG_FILE
// gets one JSON line per check ({check, ok, detail}) and the transcript
// ({transcript}); the shell test reads them.
import fs from "node:fs";
import http from "node:http";

const [portFile, logFile] = process.argv.slice(2);
const log = (o) => fs.appendFileSync(logFile, JSON.stringify(o) + "\n");
const check = (name, ok, detail = "") => log({ check: name, ok: !!ok, detail: String(detail).slice(0, 300) });
const say = (line) => log({ transcript: line.slice(0, 300) });
let nextId = 1;

// The text of a tool_result's content (a string or blocks), and its image count.
function resultParts(block) {
	const c = block.content;
	if (typeof c === "string") return { text: c, images: 0 };
	const blocks = Array.isArray(c) ? c : [];
	return {
		text: blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n"),
		images: blocks.filter((b) => b.type === "image" && b.source && b.source.data).length,
	};
}

// The scene in a tool_result: Claude Code hands the model the result's
// structuredContent as JSON text when there is one, else amc's text form
// ("ID TYPE [x1,y1,x2,y2] \"TEXT\"" lines). Returns {elements, json}.
function sceneOf(text) {
	try {
		const j = JSON.parse(text);
		return { json: j, elements: (j.scene && j.scene.elements) || [] };
	} catch {
		const elements = [...text.matchAll(/^(e[0-9a-f]+) (\w+) \[[0-9,]+\] "(.*)"$/gm)].map((m) => ({ id: m[1], type: m[2], text: m[3] }));
		return { json: null, elements };
	}
}

// Decide the reply (content blocks and stop reason) for a request body.
function reply(body) {
	const tools = (body.tools || []).map((t) => t.name);
	if (!tools.includes("mcp__amc__observe") || !tools.includes("mcp__amc__act"))
		return { content: [{ type: "text", text: "amc" }], stop: "end_turn" };
	const msgs = body.messages || [];
	// tool_use id -> tool name, from the assistant turns so far
	const names = {};
	for (const m of msgs)
		if (m.role === "assistant" && Array.isArray(m.content))
			for (const b of m.content) if (b.type === "tool_use") names[b.id] = b.name;
	const last = msgs[msgs.length - 1] || {};
	const results = Array.isArray(last.content) ? last.content.filter((b) => b.type === "tool_result") : [];
	if (!results.length) {
		// the person's words, not the blocks Claude Code adds (MCP instructions, reminders)
		const texts = msgs.filter((m) => m.role === "user").flatMap((m) => typeof m.content === "string" ?
			[m.content] : (m.content || []).filter((b) => b.type === "text").map((b) => b.text));
		const said = texts.find((t) => !/^\s*[#<]/.test(t)) || texts.pop() || "";
		say(`user: ${said}`);
		say("model: tool_use mcp__amc__observe {\"device\":\"sim\"}");
		return { content: [{ type: "tool_use", id: `toolu_${nextId++}`, name: "mcp__amc__observe", input: { device: "sim" } }], stop: "tool_use" };
	}
	const r = results[0];
	const tool = names[r.tool_use_id];
	const { text, images } = resultParts(r);
	const sc = sceneOf(text);
	const names_ = sc.elements.map((e) => e.text).filter(Boolean);
	say(`tool_result of ${tool}${r.is_error ? " (error)" : ""}: ${text.length} bytes of ${sc.json ? "JSON" : "text"}, ` +
		`${sc.elements.length} elements (${names_.slice(0, 6).join(", ")}), ${images} image block(s)`);
	log({ tool, result_head: text.slice(0, 240) });
	if (tool === "mcp__amc__observe") {
		const contacts = sc.elements.find((e) => e.text === "Contacts");
		check("observe_result_scene", sc.elements.length > 0 && contacts, `${sc.elements.length} elements`);
		check("observe_result_image", images >= 1, `${images} image block(s)`);
		const input = { device: "sim", action: "tap", element: contacts ? contacts.id : "e0", reason: "open Contacts to add a contact" };
		say(`model: tool_use mcp__amc__act ${JSON.stringify(input)}`);
		return { content: [{ type: "text", text: "I see the home screen; opening Contacts." },
			{ type: "tool_use", id: `toolu_${nextId++}`, name: "mcp__amc__act", input }], stop: "tool_use" };
	}
	if (tool === "mcp__amc__act") {
		const j = sc.json || {};
		const m = text.match(/step (\d+) of task ([0-9a-z]+): (\w+)/) || [];
		const task = j.task || m[2] || "", step = j.step || Number(m[1] || 0), status = j.status || m[3];
		check("act_result_ok", !r.is_error && status === "ok", text.slice(0, 200));
		check("act_result_new_screen", names_.includes("Alan Turing") || names_.includes("Add contact"), names_.join(", "));
		check("act_result_image", images >= 1, `${images} image block(s)`);
		log({ task, step });
		say("model: Contacts is open.");
		return { content: [{ type: "text", text: "Contacts is open on the phone." }], stop: "end_turn" };
	}
	check("known_tool_result", false, `a tool_result for ${tool}`);
	return { content: [{ type: "text", text: "unexpected" }], stop: "end_turn" };
}

function sse(res, model, content, stop) {
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
	ev("message_start", { message: { id: `msg_${nextId++}`, type: "message", role: "assistant", model, content: [],
		stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1 } } });
	content.forEach((b, i) => {
		if (b.type === "text") {
			ev("content_block_start", { index: i, content_block: { type: "text", text: "" } });
			ev("content_block_delta", { index: i, delta: { type: "text_delta", text: b.text } });
		} else {
			ev("content_block_start", { index: i, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
			ev("content_block_delta", { index: i, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
		}
		ev("content_block_stop", { index: i });
	});
	ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
	ev("message_stop", {});
	res.end();
}

const server = http.createServer((req, res) => {
	let data = "";
	req.on("data", (c) => (data += c));
	req.on("end", () => {
		const path = req.url.split("?")[0];
		if (req.method === "POST" && path === "/v1/messages/count_tokens") {
			res.writeHead(200, { "content-type": "application/json" });
			return res.end(JSON.stringify({ input_tokens: 100 }));
		}
		if (req.method !== "POST" || path !== "/v1/messages") {
			res.writeHead(404, { "content-type": "application/json" });
			return res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no ${path}` } }));
		}
		let body;
		try {
			body = JSON.parse(data);
		} catch {
			res.writeHead(400, { "content-type": "application/json" });
			return res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "bad JSON" } }));
		}
		const { content, stop } = reply(body);
		const model = body.model || "claude-mock";
		if (body.stream) return sse(res, model, content, stop);
		res.writeHead(200, { "content-type": "application/json" });
		res.end(JSON.stringify({ id: `msg_${nextId++}`, type: "message", role: "assistant", model, content,
			stop_reason: stop, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 20 } }));
	});
});
server.listen(0, "127.0.0.1", () => fs.writeFileSync(portFile, String(server.address().port)));
