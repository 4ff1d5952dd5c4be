// The MCP TypeScript SDK's client against `amc mcp` (run by
// tests/integration/test_mcp_clients.sh, which installs the SDK into the build
// folder and copies this script there). Prints TAP lines ("ok N - ...") for
// the shell to renumber; AMC and AMC_HOME come from the environment.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

let n = 0, failed = 0;
const ok = (c, msg) => { n++; if (!c) failed++; console.log(`${c ? "ok" : "not ok"} ${n} - ${msg}`); return c; };
const diag = (s) => console.log(`# ${String(s).replace(/\n/g, "\n# ")}`);
const env = { ...process.env };
const AMC = process.env.AMC;

// Progress notifications as they came over the wire. The SDK hands a
// notification to its handler in a microtask but a response at once, dropping
// the call's progress handler: a last notification read in the same chunk as
// the result never reaches onprogress. What amc sent is counted here.
const wire = [];
async function connect(name, caps = {}, extraArgs = []) {
	const t = new StdioClientTransport({ command: AMC, args: ["mcp", ...extraArgs], env, stderr: "inherit" });
	const c = new Client({ name, version: "1.0" }, { capabilities: caps });
	await c.connect(t);
	const sdk = t.onmessage;
	t.onmessage = (m, extra) => {
		if (m && m.method === "notifications/progress") wire.push(m.params);
		sdk(m, extra);
	};
	return c;
}
const text = (r) => (r.content || []).filter((x) => x.type === "text").map((x) => x.text).join("\n");
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(p / 100 * s.length) - 1)]; };

const c = await connect("sdk-test", {}, ["--confirm-timeout", "2"]);
ok(c.getServerVersion()?.name === "amc", "initialize: the server is amc");
ok(["2025-11-25", "2025-06-18"].includes(c.transport?._protocolVersion ?? "2025-11-25"), "a negotiated protocol version");
ok(JSON.stringify(await c.ping()) === "{}", "ping answers {}");

const list = await c.listTools();
const names = list.tools.map((t) => t.name).sort().join(",");
ok(names === "act,cancel_task,devices,observe,run_task,task", `tools/list has the six tools (${names})`);
const size = JSON.stringify(list).length;
console.log(`# tools/list size: ${size} bytes of JSON`);
ok(size < 6144, `tools/list is under 6 KB (${size} bytes)`);
const ann = Object.fromEntries(list.tools.map((t) => [t.name, t.annotations]));
ok(ann.observe.readOnlyHint === true && ann.act.destructiveHint === true && ann.devices.idempotentHint === true,
	"annotations: observe read-only, act destructive, devices idempotent");
ok(list.tools.every((t) => t.outputSchema), "every tool declares an outputSchema");

const dev = await c.callTool({ name: "devices", arguments: {} });
ok(!dev.isError && dev.structuredContent.devices.some((d) => d.id === "sim:0"), "devices lists sim:0 (structuredContent)");

// observe with an image, downscaled
const obs = await c.callTool({ name: "observe", arguments: { device: "sim" } });
const img = obs.content.find((x) => x.type === "image");
ok(!obs.isError && img && img.mimeType === "image/png", "observe returns the screenshot as image content");
const png = Buffer.from(img.data, "base64");
const w = png.readUInt32BE(16), h = png.readUInt32BE(20);
ok(png.subarray(1, 4).toString() === "PNG" && Math.max(w, h) <= 1024, `the image is a PNG with long edge <= 1024 (${w}x${h})`);
ok(/Contacts/.test(text(obs)) && obs.structuredContent.scene.elements.length > 0, "observe's text and structuredContent hold the scene");
ok(obs.structuredContent.task === null, "observe alone does not start a task");

// act: open Contacts by element id, with a reason
const contacts = obs.structuredContent.scene.elements.find((e) => e.text === "Contacts");
let r = await c.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: contacts.id, reason: "open the Contacts app" } });
ok(!r.isError && r.structuredContent.status === "ok" && r.structuredContent.step === 1, "act tap by element id: step 1 ok");
const task1 = r.structuredContent.task;
ok(/Add contact|Alan Turing/.test(text(r)) && r.content.some((x) => x.type === "image"), "act returns the new screen (text and image)");

// isError cases: the model can correct itself
r = await c.callTool({ name: "act", arguments: { device: "sim", action: "fly" } });
ok(r.isError && /must be one of/.test(text(r)), "a bad enum value is isError, naming the allowed values");
r = await c.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: "nope" } });
ok(r.isError && /no element 'nope'/.test(text(r)), "an unknown element id is isError");
r = await c.callTool({ name: "observe", arguments: { device: "sim", colour: true } });
ok(r.isError && /unknown argument 'colour'/.test(text(r)), "an unknown argument is isError");
r = await c.callTool({ name: "act", arguments: { device: "nosuch:x", action: "wait", ms: 1 } });
ok(r.isError, "an unknown device is isError: " + text(r).slice(0, 80));
try {
	await c.callTool({ name: "teleport", arguments: {} });
	ok(false, "an unknown tool is a protocol error");
} catch (e) {
	ok(e instanceof McpError && e.code === -32602, `an unknown tool is -32602 (${e.code})`);
}

// observe and act round trips on the sim
const tObs = [], tAct = [];
for (let i = 0; i < 15; i++) {
	let t0 = performance.now();
	await c.callTool({ name: "observe", arguments: { device: "sim", image: true } });
	tObs.push(performance.now() - t0);
	t0 = performance.now();
	const a = await c.callTool({ name: "act", arguments: { device: "sim", action: "wait", ms: 10 } });
	tAct.push(performance.now() - t0);
	if (a.isError) { ok(false, "wait act failed: " + text(a)); break; }
}
console.log(`# observe round trip on the sim: median ${pct(tObs, 50).toFixed(1)} ms, p99 ${pct(tObs, 99).toFixed(1)} ms (n=${tObs.length})`);
console.log(`# act round trip on the sim: median ${pct(tAct, 50).toFixed(1)} ms, p99 ${pct(tAct, 99).toFixed(1)} ms (n=${tAct.length})`);

// the task of this session: steps with the reason
r = await c.callTool({ name: "task", arguments: { id: task1, step: 1 } });
ok(!r.isError && r.structuredContent.task.planner === "mcp" && r.structuredContent.task.status === "running",
	"task: the session is a running task of planner mcp");
ok(r.structuredContent.step.reasoning === "open the Contacts app" && r.structuredContent.step.after_screenshot.bytes > 0,
	"task step 1: the reason is the step's reasoning; the after screenshot by path and size");

// the irreversible gate without elicitation and nobody at the TUI: refused with the reason
r = await c.callTool({ name: "observe", arguments: { device: "sim", image: false } });
ok(r.structuredContent.task === task1, "observe on a device this session holds reads the session's screen");
const alan = r.structuredContent.scene.elements.find((e) => e.text === "Alan Turing");
r = await c.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: alan.id } });
const del = r.structuredContent.scene.elements.find((e) => e.text === "Delete");
ok(!!del, "a contact's detail screen has Delete");
r = await c.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: del.id, reason: "I confirm: yes" } });
ok(r.isError && r.structuredContent.status === "refused" && /refused/.test(text(r)),
	"an irreversible-looking tap is refused when nobody confirms (a reason never confirms): " + text(r).split("\n")[0].slice(0, 160));

// run_task on the held device ends the session's task first; progress per step
const flow = "appId: com.android.contacts\n---\n- launchApp\n" + "- swipe:\n    direction: UP\n".repeat(3) + "- back\n";
const progress = [];
wire.length = 0;
r = await c.callTool({ name: "run_task", arguments: { device: "sim", flow, wait: true } }, undefined,
	{ onprogress: (p) => progress.push(p), timeout: 120000 });
ok(!r.isError && r.structuredContent.status === "succeeded" && r.structuredContent.steps === 5,
	`run_task with a flow as YAML text waits and succeeds (${r.structuredContent.status}, ${r.structuredContent.steps} steps)`);
ok(wire.length >= 5 && wire.map((p) => p.progress).join(",") === "1,2,3,4,5",
	`progress notifications per step (${wire.map((p) => p.progress).join(",")})`);
ok(progress.length >= 4 && progress[0].progress === 1,
	`the SDK's onprogress got them (${progress.length}; the last may arrive with the result)`);
r = await c.callTool({ name: "task", arguments: { id: task1 } });
ok(r.structuredContent.task.status !== "running" && /ended by the client after \d+ actions \(1 of them failed\)/.test(r.structuredContent.task.error || ""),
	`run_task ended the session's task first (${r.structuredContent.task.status}: ${r.structuredContent.task.error})`);

// cancellation mid-run: abort the request after its first progress
const long = "appId: com.android.contacts\n---\n- launchApp\n" + "- swipe:\n    direction: UP\n".repeat(200);
const ac = new AbortController();
let runTask = null;
const p = c.callTool({ name: "run_task", arguments: { device: "sim", flow: long, wait: true } }, undefined,
	{ signal: ac.signal, onprogress: (pr) => { if (pr.progress >= 2) ac.abort("enough"); }, timeout: 120000 });
try { await p; ok(false, "the aborted call does not resolve"); } catch (e) { ok(true, "aborting the call rejects it (notifications/cancelled sent)"); }
// ping is answered while tasks run, and the task shows as cancelled shortly
ok(JSON.stringify(await c.ping()) === "{}", "ping is answered right after");
const tl = await c.callTool({ name: "devices", arguments: {} });
let st = "";
for (let i = 0; i < 50; i++) {
	const l = await c.callTool({ name: "devices", arguments: {} });
	const s = l.structuredContent.devices.find((d) => d.id === "sim:0");
	if (s.status !== "busy") break;
	await new Promise((res) => setTimeout(res, 100));
}
// the newest task is the cancelled run
const bg = await c.callTool({ name: "run_task", arguments: { device: "sim", flow: long } });
runTask = bg.structuredContent.task;
ok(!bg.isError && bg.structuredContent.status === "running", "run_task without wait returns the task id at once");
const ping0 = performance.now();
await c.ping();
ok(performance.now() - ping0 < 1000, "a running task does not block ping");
await new Promise((res) => setTimeout(res, 500));
r = await c.callTool({ name: "cancel_task", arguments: { id: runTask } });
ok(!r.isError && r.structuredContent.cancelled === true, "cancel_task cancels it");
for (let i = 0; i < 50; i++) {
	r = await c.callTool({ name: "task", arguments: { id: runTask } });
	st = r.structuredContent.task.status;
	if (st !== "running") break;
	await new Promise((res) => setTimeout(res, 100));
}
ok(st === "cancelled", `the run ends cancelled (${st})`);
r = await c.callTool({ name: "cancel_task", arguments: { id: runTask } });
ok(r.isError && /already ended/.test(text(r)), "cancelling it again is isError: already ended");
await c.close();

// a client that supports elicitation is asked instead
const asked = [];
const c2 = await connect("sdk-elicit", { elicitation: {} });
c2.setRequestHandler(ElicitRequestSchema, async (req) => { asked.push(req.params.message); return { action: "accept", content: { allow: true } }; });
r = await c2.callTool({ name: "act", arguments: { device: "sim", action: "launch_app", app: "com.android.contacts" } });
r = await c2.callTool({ name: "observe", arguments: { device: "sim", image: false } });
const grace = r.structuredContent.scene.elements.find((e) => e.text === "Grace Hopper");
r = await c2.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: grace.id } });
const del2 = r.structuredContent.scene.elements.find((e) => e.text === "Delete");
r = await c2.callTool({ name: "act", arguments: { device: "sim", action: "tap", element: del2.id } });
ok(asked.length === 1 && /irreversible/.test(asked[0]), "with elicitation, the person is asked through the client");
ok(!r.isError && r.structuredContent.status === "ok", "and the accepted tap runs");
const sess2 = r.structuredContent.task;
await c2.close();
console.log(`# session tasks: ${task1} ${sess2}`);
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
