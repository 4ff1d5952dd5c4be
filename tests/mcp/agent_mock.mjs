// A local mock of the two model APIs the coding-agent CLIs call, for
// `amc run --agent claude|codex` tests (tests/integration/test_agentcli.sh):
// Anthropic Messages (POST /v1/messages, streamed as server-sent events, what
// Claude Code calls) and OpenAI Responses (POST /v1/responses, streamed, what
// Codex calls through a [model_providers] entry). Usage:
//   node agent_mock.mjs PORT_FILE LOG_FILE [MODE]
// MODE: "ok" (default): a scripted model that completes suite templates
// (settings-wifi, contact-add, alarm-create, note-create, contact-delete and
// contact-delete-denied: amc asks the person, never the agent) through amc's MCP
// tools, reading element ids from amc's tool results; "401": every model call
// is refused as unauthenticated; "slow": each answer waits 4 s (a test kills
// the CLI meanwhile); "wander": observes forever, never finishes.
// After every tool call the mock checks that the next request carries amc's
// tool result with the scene (text) and a screenshot (image), and logs each
// check as a JSON line {check, ok, detail}; {goal}, {action} and {api} lines
// tell the shell test what happened.
import fs from "node:fs";
import http from "node:http";

const [portFile, logFile, mode = "ok"] = process.argv.slice(2);
const log = (o) => fs.appendFileSync(logFile, JSON.stringify(o) + "\n");
const check = (name, ok, detail = "") => log({ check: name, ok: !!ok, detail: String(detail).slice(0, 300) });
let nextId = 1;

// The plan for a goal: tool calls in order ({tool, input}); {find} marks an
// element to look up in the latest screen (by text or resource id).
function planFor(goal) {
	let m;
	if ((m = goal.match(/Turn Wi-Fi (on|off)\./)))
		return [{ launch: "com.android.settings" }, { tap: { text: "Wi-Fi" } }, { tap: { text: "Use Wi-Fi" } },
			{ finish: `Wi-Fi is ${m[1]}` }];
	if ((m = goal.match(/Add a contact named (.+) with the phone number (.+)\.$/m)))
		return [{ launch: "com.android.contacts" }, { tap: { text: "Add contact" } }, { tap: { rid: "name" } },
			{ type: m[1] }, { tap: { rid: "phone" } }, { type: m[2] }, { tap: { text: "Save" } },
			{ finish: `added ${m[1]}` }];
	if ((m = goal.match(/Set an alarm for (\S+) labelled "(.+)"\./)))
		return [{ launch: "com.android.deskclock" }, { tap: { text: "Add alarm" } }, { tap: { rid: "time" } },
			{ type: m[1] }, { tap: { rid: "label_input" } }, { type: m[2] }, { tap: { text: "Save" } },
			{ finish: `alarm ${m[1]} set` }];
	// irreversible: the person confirms (or refuses) at amc, never the agent
	if ((m = goal.match(/^Delete the contact (.+?)(?:, but only if the operator approves)?\.$/)))
		return [{ launch: "com.android.contacts" }, { tap: { text: m[1] } }, { tap: { rid: "delete" } },
			{ tap: { rid: "button1" }, ifShown: true }, { finish: `deleted ${m[1]}`, unlessRefused: true }];
	if ((m = goal.match(/Create a note titled "(.+)" whose text is "(.+)"\./)))
		return [{ launch: "com.amc.notes" }, { tap: { text: "New note" } }, { tap: { rid: "title" } },
			{ type: m[1] }, { tap: { rid: "body" } }, { type: m[2] }, { key: "back" }, { key: "back" },
			{ finish: `note ${m[1]} written` }];
	return null;
}

// The scene in a tool result's text: amc's structured JSON, or its text lines.
function elementsOf(text) {
	try {
		const j = JSON.parse(text);
		return (j.scene && j.scene.elements) || [];
	} catch {
		// amc's text form: `ID TYPE [x1,y1,x2,y2] "TEXT" rid=RESOURCE-ID` (text and rid optional)
		return [...text.matchAll(/^(e[0-9a-f]+) (\w+) \[[0-9,]+\](?: "(.*?)")?(?: rid=(\S+))?$/gm)]
			.map((x) => ({ id: x[1], type: x[2], text: x[3] || "", resource_id: x[4] }));
	}
}

function findElement(els, want) {
	if (want.text) return els.find((e) => e.text === want.text);
	return els.find((e) => e.resource_id && (e.resource_id === want.rid || e.resource_id.endsWith("/" + want.rid)));
}

// One turn of the scripted agent. history: [{tool, text, images, isError}]
// (the tool results so far, oldest first), goal: the task's goal. Returns
// {call: {name, input}} or {text}.
function decide(goal, history, prefix) {
	const plan = planFor(goal);
	if (!plan) return { text: `no script for this goal: ${goal.slice(0, 80)}` };
	if (mode === "wander") return { call: { name: "observe", input: {} } };
	if (!history.length) return { call: { name: "observe", input: {} } };
	const last = history[history.length - 1];
	if (last.finished)
		return { text: "The task is finished." };
	// actions done so far = act calls after the first observe
	const acts = history.filter((h) => h.tool === "act").length;
	if (acts >= plan.length) return { text: "The task is finished." };
	const stepPlan = plan[acts];
	const els = elementsOf(last.text);
	// a refused act (the person said no at amc): the agent gives up, as it must
	if (last.tool === "act" && /refused/.test(last.text) && !last.finished) {
		log({ refused_seen: last.text.slice(0, 200) });
		const input = { action: "finish", success: false, summary: "the operator refused the deletion", reason: "refused" };
		log({ action: input });
		return { call: { name: "act", input } };
	}
	let input;
	if (stepPlan.launch) input = { action: "launch_app", app: stepPlan.launch, reason: `open ${stepPlan.launch}` };
	else if (stepPlan.type) input = { action: "type_text", text: stepPlan.type, reason: "type the value" };
	else if (stepPlan.key) input = { action: "press_key", key: stepPlan.key, reason: "go back" };
	else if (stepPlan.finish) input = { action: "finish", success: true, summary: stepPlan.finish, reason: "goal reached" };
	else {
		const el = findElement(els, stepPlan.tap);
		if (!el && stepPlan.ifShown) {
			const input = { action: "finish", success: true, summary: "done", reason: "no confirmation dialog" };
			log({ action: input });
			return { call: { name: "act", input } };
		}
		check("element_found", !!el, JSON.stringify(stepPlan.tap));
		input = el ? { action: "tap", element: el.id, reason: `tap ${el.text || stepPlan.tap.rid}` }
			: { action: "finish", success: false, summary: `no element ${JSON.stringify(stepPlan.tap)}` };
	}
	log({ action: input });
	return { call: { name: "act", input } };
}

// Checks on a tool result the CLI handed back (all but a finish's).
function checkResult(api, h) {
	if (h.finished) return;
	const els = elementsOf(h.text);
	// a refused act is a tool error that still shows the screen
	check(`${api}_${h.tool}_result_scene`, els.length > 0 && (!h.isError || /refused/.test(h.text)),
		`${els.length} elements; ${h.text.slice(0, 120)}`);
	// Claude Code keeps only the text of a tool error (a refused act)
	if (!h.isError)
		check(`${api}_${h.tool}_result_image`, h.images >= 1, `${h.images} image block(s)`);
}

// act finish answers "task ID succeeded after N steps" (text) or {"status": ...} without a scene
function isFinish(tool, text) {
	return tool === "act" && (/^task \w+ (succeeded|failed|running) after/m.test(text) ||
		(/"status":"(succeeded|failed)"/.test(text) && !/"scene"/.test(text)));
}

// What the agent says before a call, as a model does between tool calls: it
// names what it saw, so a test can tell these words from the act's reason.
function wordsOf(hist, call) {
	const last = hist[hist.length - 1];
	const seen = last ? elementsOf(last.text).length : 0;
	if (call.name !== "act") return "First I look at the screen.";
	return `Seen ${seen} elements; next: ${call.input.reason || call.input.action}.`;
}

// ---- Anthropic Messages ----

function anthropicHistory(body) {
	const names = {}, hist = [];
	let goal = "";
	for (const m of body.messages || []) {
		const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content || [];
		for (const b of blocks) {
			if (m.role === "user" && b.type === "text" && !goal) {
				const g = b.text.match(/^Goal: (.*)$/m);
				if (g) goal = g[1];
			}
			if (b.type === "tool_use") names[b.id] = b.name.replace(/^mcp__amc__/, "");
			if (b.type === "tool_result") {
				const c = typeof b.content === "string" ? [{ type: "text", text: b.content }] : b.content || [];
				const text = c.filter((x) => x.type === "text").map((x) => x.text).join("\n");
				const tool = names[b.tool_use_id];
				hist.push({ tool, text, images: c.filter((x) => x.type === "image").length, isError: !!b.is_error,
					finished: isFinish(tool, text) });
			}
		}
	}
	return { goal, hist };
}

function anthropicSSE(res, model, content, stop) {
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
	ev("message_start", { message: { id: `msg_${nextId++}`, type: "message", role: "assistant", model, content: [],
		stop_reason: null, stop_sequence: null, usage: { input_tokens: 1000, output_tokens: 1 } } });
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
	ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 50 } });
	ev("message_stop", {});
	res.end();
}

function anthropic(body, res) {
	const tools = (body.tools || []).map((t) => t.name);
	const model = body.model || "claude-mock";
	if (!tools.includes("mcp__amc__act")) // a title or a quota probe
		return anthropicSSE(res, model, [{ type: "text", text: "amc" }], "end_turn");
	const { goal, hist } = anthropicHistory(body);
	if (hist.length === 0) {
		log({ api: "anthropic", goal, tools });
		check("anthropic_only_amc_tools", tools.every((t) => t.startsWith("mcp__amc__")), tools.join(","));
	} else checkResult("anthropic", hist[hist.length - 1]);
	const d = decide(goal, hist);
	if (d.text) return anthropicSSE(res, model, [{ type: "text", text: d.text }], "end_turn");
	return anthropicSSE(res, model, [{ type: "text", text: wordsOf(hist, d.call) },
		{ type: "tool_use", id: `toolu_${nextId++}`, name: `mcp__amc__${d.call.name}`, input: d.call.input }], "tool_use");
}

// ---- OpenAI Responses (Codex) ----

function toolShort(name) {
	return String(name).replace(/^mcp__amc__/, "").replace(/^amc[._]+/, "").replace(/^.*__/, "");
}

function responsesHistory(body) {
	const names = {}, hist = [];
	let goal = "";
	for (const it of body.input || []) {
		if (it.type === "message" && it.role === "user")
			for (const c of it.content || []) {
				const g = typeof c.text === "string" && c.text.match(/^Goal: (.*)$/m);
				if (g && !goal) goal = g[1];
			}
		if (it.type === "function_call") names[it.call_id] = toolShort(it.name);
		if (it.type === "function_call_output") {
			const o = it.output;
			const parts = typeof o === "string" ? [{ type: "input_text", text: o }] : Array.isArray(o) ? o
				: o && Array.isArray(o.content) ? o.content : [{ type: "input_text", text: JSON.stringify(o) }];
			let text0 = parts.filter((p) => p.type === "input_text" || p.type === "text").map((p) => p.text).join("\n");
			// Codex prefixes a tool's output with "Wall time: ...\nOutput:\n"
			let text = text0.replace(/^Wall time: [^\n]*\nOutput:\n/, "");
			let images = parts.filter((p) => p.type === "input_image" || p.type === "image").length;
			// older Codex: the MCP result as JSON text holding the content blocks
			try {
				const j = JSON.parse(text);
				const blocks = Array.isArray(j) ? j : j && Array.isArray(j.content) ? j.content : null;
				if (blocks) {
					text = blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n");
					images += blocks.filter((b) => b.type === "image").length;
				}
			} catch { /* plain text */ }
			const tool = names[it.call_id];
			hist.push({ tool, text, images, isError: false,
				finished: isFinish(tool, text) });
		}
	}
	return { goal, hist };
}

function responsesSSE(res, body, item, before) {
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	const id = `resp_${nextId++}`;
	const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
	ev("response.created", { response: { id, object: "response", status: "in_progress", model: body.model } });
	const items = before ? [before, item] : [item];
	items.forEach((it, i) => {
		ev("response.output_item.added", { output_index: i, item: it });
		ev("response.output_item.done", { output_index: i, item: it });
	});
	ev("response.completed", { response: { id, object: "response", status: "completed", model: body.model, output: items,
		usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 50,
			output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1050 } } });
	res.end();
}

function responses(body, res) {
	const tools = (body.tools || []).map((t) => t.name || (t.function && t.function.name) || t.type);
	// Codex 0.171 offers an MCP server's tools as a namespace {type: "namespace", name: "mcp__amc", tools}
	const ns = (body.tools || []).find((t) => t.type === "namespace" && /amc/.test(t.name));
	const { goal, hist } = responsesHistory(body);
	if (hist.length === 0) {
		log({ api: "responses", goal, tools, amc_tools: ns ? ns.tools.map((t) => t.name) : null });
		check("responses_amc_tools_offered", ns && ns.tools.some((t) => t.name === "act"), tools.join(","));
	} else checkResult("responses", hist[hist.length - 1]);
	const callItem = (short, input) => ns ? { name: short, namespace: ns.name, arguments: JSON.stringify(input) }
		: { name: tools.find((t) => toolShort(t) === short) || `mcp__amc__${short}`, arguments: JSON.stringify(input) };
	const d = goal ? decide(goal, hist) : { text: "amc" };
	if (d.text)
		return responsesSSE(res, body, { type: "message", id: `msg_${nextId++}`, role: "assistant", status: "completed",
			content: [{ type: "output_text", text: d.text, annotations: [] }] });
	responsesSSE(res, body, { type: "function_call", id: `fc_${nextId++}`, call_id: `call_${nextId++}`, status: "completed",
		...callItem(d.call.name, d.call.input) },
		{ type: "message", id: `msg_${nextId++}`, role: "assistant", status: "completed",
			content: [{ type: "output_text", text: wordsOf(hist, d.call), annotations: [] }] });
}

const server = http.createServer((req, res) => {
	let data = "";
	req.on("data", (c) => (data += c));
	req.on("end", () => {
		const path = req.url.split("?")[0];
		const json = (code, o) => { res.writeHead(code, { "content-type": "application/json" }); res.end(JSON.stringify(o)); };
		if (mode === "401")
			return json(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
		if (req.method === "POST" && path.endsWith("/messages/count_tokens")) return json(200, { input_tokens: 100 });
		let body;
		try {
			body = JSON.parse(data || "{}");
		} catch {
			return json(400, { type: "error", error: { type: "invalid_request_error", message: "bad JSON" } });
		}
		const answer = () => {
			if (req.method === "POST" && path.endsWith("/v1/messages")) return anthropic(body, res);
			if (req.method === "POST" && path.endsWith("/responses")) return responses(body, res);
			json(404, { type: "error", error: { type: "not_found_error", message: `no ${path}` } });
		};
		if (mode === "slow") setTimeout(answer, 4000);
		else answer();
	});
});
server.listen(0, "127.0.0.1", () => fs.writeFileSync(portFile, String(server.address().port)));
