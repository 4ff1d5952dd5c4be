// Issue 30's app actions and flow check through the TypeScript SDK's
// validating callTool (run by tests/integration/test_mcp_sdk_apps.sh): act's
// list_apps, stop_app, install_app, clear_app (behind a person's yes, asked by
// elicitation, refused without one) and the keys, and run_task's check_only;
// every result is validated against its tool's output schema by the SDK.
// Prints TAP lines.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fs from "node:fs";

let n = 0, failed = 0;
const ok = (c, msg) => { n++; if (!c) failed++; console.log(`${c ? "ok" : "not ok"} ${n} - ${msg}`); return c; };
const AMC = process.env.AMC, HOME = process.env.AMC_HOME;
const text = (r) => (r?.content || []).filter((x) => x.type === "text").map((x) => x.text).join("\n");

async function connect(name, caps) {
	const t = new StdioClientTransport({ command: AMC, args: ["mcp", "--confirm-timeout", "1"], env: { ...process.env }, stderr: "inherit" });
	const c = new Client({ name, version: "1.0" }, { capabilities: caps });
	return { c, t };
}

// A call whose result breaks its schema throws in the SDK: each is caught.
async function call(c, name, args, what) {
	try {
		const r = await c.callTool({ name, arguments: args }, undefined, { timeout: 30000 });
		ok(true, `${what}: the result matches ${name}'s output schema`);
		return r;
	} catch (e) {
		ok(false, `${what}: ${e.message.slice(0, 200)}`);
		return null;
	}
}

// ---- a client whose user answers by elicitation ----
const asked = [];
let answer = "decline";
const { c, t } = await connect("apps", { elicitation: {} });
c.setRequestHandler(ElicitRequestSchema, async (req) => {
	asked.push(req.params.message);
	return answer === "accept" ? { action: "accept", content: { allow: true } } : { action: "decline" };
});
await c.connect(t);
const tools = await c.listTools();
const act = tools.tools.find((x) => x.name === "act");
const actions = act.inputSchema.properties.action.enum;
ok(["list_apps", "install_app", "stop_app", "clear_app"].every((a) => actions.includes(a)), "act offers list_apps, install_app, stop_app and clear_app");
ok(act.inputSchema.properties.key.enum.includes("app_switch"), "press_key offers app_switch");
ok(JSON.stringify(tools).length < 6144, `tools/list stays under 6 KB (${JSON.stringify(tools).length} bytes)`);

let r = await call(c, "act", { device: "sim", action: "list_apps" }, "act list_apps");
const apps = r?.structuredContent?.result?.apps ?? [];
ok(r && !r.isError && apps.includes("com.android.contacts") && apps.includes("com.android.settings"),
	`list_apps: the sim's apps (${apps.length}), as structured content`);
ok(/com\.android\.contacts/.test(text(r)), "and in the text the model reads");
const task = r?.structuredContent?.task;
await call(c, "act", { device: "sim", action: "launch_app", app: "com.android.contacts" }, "act launch_app");
r = await call(c, "act", { device: "sim", action: "stop_app", app: "com.android.contacts" }, "act stop_app");
ok(r && !r.isError && r.structuredContent.result.stopped === "com.android.contacts", "stop_app: ok, naming the app");

// clear_app: the person says no, then yes
r = await call(c, "act", { device: "sim", action: "clear_app", app: "com.android.contacts", reason: "fresh start" }, "act clear_app, declined");
ok(r && r.isError && r.structuredContent.status === "refused", `clear_app refused when the person declines (${r?.structuredContent?.status})`);
ok(asked.length === 1 && /clear_app/.test(asked[0]) && /com\.android\.contacts/.test(asked[0]) && /fresh start/.test(asked[0]),
	"the person was asked by elicitation, with the app and the reason: " + (asked[0] || "").slice(0, 140));
answer = "accept";
r = await call(c, "act", { device: "sim", action: "clear_app", app: "com.android.contacts" }, "act clear_app, accepted");
ok(r && !r.isError && r.structuredContent.status === "ok" && r.structuredContent.result.cleared === "com.android.contacts",
	"clear_app runs once the person says yes");
ok(asked.length === 2, "asked again: every clear_app is asked");

// install_app: a checked path on the server's host
r = await call(c, "act", { device: "sim", action: "install_app", path: "/nonexistent/app.apk" }, "act install_app of a missing file");
ok(r && r.isError && r.structuredContent.status === "failed" && /no such file/.test(text(r)), "a missing file: failed, saying so");
fs.writeFileSync(`${HOME}/app.apk`, "PK\x03\x04");
r = await call(c, "act", { device: "sim", action: "install_app", path: `${HOME}/app.apk` }, "act install_app on the sim");
ok(r && r.isError && /cannot install packages/.test(text(r)), "the sim installs nothing, and says so");

// keys
r = await call(c, "act", { device: "sim", action: "press_key", key: "volume_up" }, "act press_key volume_up");
ok(r && !r.isError, "volume_up on the sim");
r = await call(c, "act", { device: "sim", action: "press_key", key: "app_switch" }, "act press_key app_switch");
ok(r && r.isError && /volume_up/.test(text(r)), "app_switch: the sim has none and names the keys it has");

// every action recorded as a step of the session's task
r = await call(c, "task", { id: task ?? "x" }, "task of the session");
const tl = (r?.structuredContent?.steps ?? []).map((s) => `${s.tool}:${s.status}`);
ok(["list_apps:ok", "stop_app:ok", "clear_app:refused", "clear_app:ok", "install_app:failed"].every((s) => tl.includes(s)),
	"the session's task records each: " + tl.join(" "));
await call(c, "act", { device: "sim", action: "finish", success: true }, "act finish");

// run_task check_only: amc flow check of the flow, no task
const bad = "appId: com.android.contacts\n---\n- launchApp\n- tapOn: \"Delete\"\n- fly: 3\n- inputText: ${WHO}\n";
r = await call(c, "run_task", { device: "sim", flow: bad, check_only: true }, "run_task check_only of a bad flow");
const pr = r?.structuredContent?.problems ?? [];
ok(r && !r.isError && r.structuredContent.task === null && r.structuredContent.status === "refused", "refused, and no task (task null)");
ok(pr.some((p) => p.line === 5 && p.kind === "invalid" && /fly/.test(p.message)), "the unknown command, by line");
ok(pr.some((p) => p.line === 6 && p.kind === "needs-env" && p.severity === "warning"), "the input it needs, as a warning");
ok(pr.some((p) => p.line === 4 && p.kind === "needs-confirmation"), "the tap run_task would refuse (no --yes), by line");
r = await call(c, "run_task", { device: "adb:emulator-5554", flow: "appId: x\n---\n- setLocation:\n    latitude: 1\n    longitude: 2\n", check_only: true }, "run_task check_only for an adb phone");
ok(r && r.structuredContent.status === "refused" && r.structuredContent.problems.some((p) => p.kind === "device"), "what the device kind cannot do");
r = await call(c, "run_task", { device: "sim", flow: "appId: com.android.contacts\n---\n- launchApp\n- assertVisible: Contacts\n", check_only: true }, "run_task check_only of a clean flow");
ok(r && r.structuredContent.status === "clean" && r.structuredContent.problems.length === 0, "a clean flow: clean, no problems");
r = await call(c, "run_task", { device: "sim", goal: "open contacts", check_only: true }, "run_task check_only of a goal");
ok(r && r.isError, "check_only checks flows, not goals");
r = await call(c, "devices", {}, "devices");
ok(r && !r.structuredContent.devices.some((d) => d.id === "sim:0" && d.task), "no task holds the sim after the checks");
await c.close();

// ---- a client that cannot ask its user, nobody at the TUI: refused ----
{
	const { c: c2, t: t2 } = await connect("apps-noelicit", {});
	await c2.connect(t2);
	await c2.listTools();
	r = await call(c2, "act", { device: "sim", action: "clear_app", app: "com.android.notes" }, "act clear_app with nobody to ask");
	ok(r && r.isError && r.structuredContent.status === "refused" && /person|TUI|yes/.test(text(r)),
		"clear_app refused when nobody can say yes: " + text(r).split("\n")[0].slice(0, 160));
	await call(c2, "act", { device: "sim", action: "finish", success: false }, "act finish");
	await c2.close();
}
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
