// Issue 30's findings through the TypeScript SDK's validating callTool (run by
// tests/integration/test_mcp_sdk_findings.sh): results keep their declared
// output schemas (the SDK throws when they do not), and errors on lines that
// do not parse still carry the request's id. Prints TAP lines.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawn } from "node:child_process";

let n = 0, failed = 0;
const ok = (c, msg) => { n++; if (!c) failed++; console.log(`${c ? "ok" : "not ok"} ${n} - ${msg}`); return c; };
const AMC = process.env.AMC;
const text = (r) => (r.content || []).filter((x) => x.type === "text").map((x) => x.text).join("\n");

const t = new StdioClientTransport({ command: AMC, args: ["mcp", "--confirm-timeout", "1"], env: { ...process.env }, stderr: "inherit" });
const c = new Client({ name: "findings", version: "1.0" }, { capabilities: {} });
await c.connect(t);
await c.listTools(); // the SDK keeps the output schemas to validate results

// A call whose result breaks its schema throws in the SDK: each is caught.
async function call(name, args, what) {
	try {
		const r = await c.callTool({ name, arguments: args }, undefined, { timeout: 20000 });
		ok(true, `${what}: the result matches ${name}'s output schema`);
		return r;
	} catch (e) {
		ok(false, `${what}: ${e.message.slice(0, 200)}`);
		return null;
	}
}

// Every tool, and every action of act.
await call("devices", {}, "devices");
const obs = await call("observe", { device: "sim", image: false }, "observe");
const el = obs?.structuredContent.scene.elements.find((e) => e.text === "Contacts");
await call("act", { device: "sim", action: "tap", element: el?.id ?? "e0" }, "act tap");
await call("act", { device: "sim", action: "press_key", key: "back" }, "act press_key back");
await call("act", { device: "sim", action: "press_key", key: "delete" }, "act press_key delete");
await call("act", { device: "sim", action: "long_press", x: 500, y: 800 }, "act long_press");
await call("act", { device: "sim", action: "swipe", x: 500, y: 1500, x2: 500, y2: 500 }, "act swipe");
await call("act", { device: "sim", action: "type_text", text: "hi" }, "act type_text");
await call("act", { device: "sim", action: "launch_app", app: "com.android.settings" }, "act launch_app");
let r = await call("act", { device: "sim", action: "wait", ms: 1 }, "act wait");
const task1 = r?.structuredContent.task;
for (let i = 0; i < 30; i++)
	await c.callTool({ name: "act", arguments: { device: "sim", action: "wait", ms: 1 } });
r = await call("task", { id: task1 }, "task with more than 30 steps");
ok(r && r.structuredContent.steps.length === 30 && r.structuredContent.steps_left_out > 0,
	`task lists its latest 30 steps and says how many it left out (${r?.structuredContent.steps_left_out})`);
await call("task", { id: task1, step: 1 }, "task with a step");
r = await call("act", { device: "sim", action: "reason-test", reason: "x".repeat(3000) }, "act with a bad action");
r = await call("act", { device: "sim", action: "wait", ms: 1, reason: "x".repeat(3000) }, "act with a long reason");
ok(r && r.isError && /2000/.test(text(r)), "a reason over 2000 bytes is refused, not stored");
r = await call("act", { device: "sim", action: "finish", success: true, summary: "done" }, "act finish");
ok(r && !r.isError && r.structuredContent.step === r.structuredContent.steps && r.structuredContent.steps > 30,
	`act finish carries step (${r?.structuredContent.step})`);
r = await call("act", { device: "sim", action: "finish" }, "act finish again");
ok(r && r.isError && /nothing to finish/.test(text(r)), "a retried finish is an error, not a new 0-step task");
r = await call("devices", {}, "devices after finish");
ok(r && !r.structuredContent.devices.some((d) => d.id === "sim:0" && d.task), "no task holds sim:0 after the retried finish");
r = await call("run_task", { device: "sim", flow: "appId: com.android.contacts\n---\n- launchApp\n", wait: false }, "run_task");
const rt = r?.structuredContent.task;
await call("cancel_task", { id: rt ?? "x" }, "cancel_task");

// Finding 1: a client's flow with an irreversible tap is refused before it
// starts, naming the line (the server runs without --yes).
{
	const del = "appId: com.android.contacts\n---\n- launchApp\n- tapOn: \"Alan Turing\"\n- tapOn: \"Delete\"\n- tapOn:\n    id: \"button1\"\n";
	for (let i = 0; i < 50; i++) { // the cancelled run may still hold the device
		const d = await c.callTool({ name: "devices", arguments: {} });
		if (!d.structuredContent.devices.some((x) => x.id === "sim:0" && x.status === "busy")) break;
		await new Promise((res) => setTimeout(res, 100));
	}
	r = await call("run_task", { device: "sim", flow: del, wait: true }, "run_task with a deleting flow");
	ok(r && r.isError && /line 5 of the flow text you sent/.test(text(r)) && /Delete/.test(text(r)),
		"a client's flow that taps Delete is refused before it starts, naming the line: " + (r ? text(r).slice(0, 120) : ""));
}

// A lone surrogate (an emoji cut in half): the SDK sends "\ud83d"; the answer
// must come (with the id), not a -32700 the SDK never matches.
try {
	r = await c.callTool({ name: "task", arguments: { id: "nope\ud83d" } }, undefined, { timeout: 5000 });
	ok(r.isError && /\uFFFD|no task|not/i.test(text(r)), "a lone surrogate is read as U+FFFD: " + text(r).slice(0, 80));
} catch (e) {
	ok(false, "a lone surrogate gets an answer: " + e.message.slice(0, 120));
}
await c.close();

// Finding 2: a client cannot answer its own question. While act waits for a
// person's yes, a bare "yes" written into confirm-TASK.answer (as a client
// with a shell could) is refused: the answer must carry the question's secret.
{
	const t2 = new StdioClientTransport({ command: AMC, args: ["mcp", "--confirm-timeout", "8"], env: { ...process.env }, stderr: "inherit" });
	const c2 = new Client({ name: "forger", version: "1.0" }, { capabilities: {} });
	await c2.connect(t2);
	await c2.listTools();
	const fs = await import("node:fs");
	const home = process.env.AMC_HOME;
	let r2 = null;
	for (let i = 0; i < 50 && !r2; i++) {
		try { r2 = await c2.callTool({ name: "act", arguments: { device: "sim", action: "launch_app", app: "com.android.contacts" } }); }
		catch (e) { r2 = null; }
		if (r2 && r2.isError) { r2 = null; await new Promise((res) => setTimeout(res, 200)); }
	}
	const find = (res, txt) => res?.structuredContent?.scene?.elements?.find((e) => e.text === txt);
	const alan = find(r2, "Alan Turing");
	r2 = await c2.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: alan?.id ?? "e0" } });
	const del = find(r2, "Delete");
	ok(!!del, "the contact's screen has Delete");
	let forged = false;
	const poll = setInterval(() => {
		for (const f of fs.readdirSync(home)) {
			if (f.startsWith("confirm-") && f.endsWith(".ask") && !forged) {
				fs.writeFileSync(`${home}/${f.slice(0, -4)}.answer`, "yes\n");
				forged = true;
			}
		}
	}, 50);
	try {
		r2 = await c2.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: del?.id ?? "e0" } }, undefined, { timeout: 20000 });
	} catch (e) { r2 = { isError: true, content: [{ type: "text", text: e.message }] }; }
	clearInterval(poll);
	ok(forged && r2.isError && r2.structuredContent?.status === "refused" && /secret/.test(text(r2)),
		`a bare yes written into the .answer file is refused (${forged}; ${text(r2).split("\n")[0].slice(0, 160)})`);
	await c2.close();
}

// Raw lines: an id is recovered from a line that does not parse; a raw NUL
// inside a string is an error, not a cut; a line of NULs gets an answer.
async function raw(lines) {
	const p = spawn(AMC, ["mcp"], { env: { ...process.env }, stdio: ["pipe", "pipe", "inherit"] });
	let out = "";
	p.stdout.on("data", (d) => { out += d; });
	for (const l of lines) p.stdin.write(l);
	p.stdin.end();
	await new Promise((res) => p.on("close", res));
	return out.split("\n").filter((x) => x).map((x) => JSON.parse(x));
}
const answers = await raw([
	'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"\\ud83d"}}\n',
	'{"jsonrpc":"2.0","id":8,"method":"pi\0ng"}\n',
	"\0\0\0\0\n",
	'{"jsonrpc":"2.0","id":"nine","method":"ping",}\n',
	'{"jsonrpc":"2.0","method":"ping","id":10} {}\n',
]);
const by = (id) => answers.find((a) => a.id === id);
ok(by(7) && by(7).result, "a lone surrogate escape parses (ping answered)");
ok(by(8) && by(8).error && by(8).error.code === -32700, `a raw NUL inside a string is -32700 with the id (${JSON.stringify(by(8))})`);
ok(answers.filter((a) => a.id === undefined && a.error && a.error.code === -32700).length === 1, "a line of NULs gets an answer (the one error without an id)");
ok(by("nine") && by("nine").error.code === -32700, "a trailing comma: -32700 with the string id");
ok(by(10) && by(10).error.code === -32700, "two values on a line: -32700 with the id");
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
