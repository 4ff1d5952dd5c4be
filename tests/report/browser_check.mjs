// browser_check.mjs - load an amc HTML report in headless Chromium and say
// what a reader's browser did with it, as one JSON line on stdout.
//
//   node browser_check.mjs CHROMIUM REPORT.html SCREENSHOT.png [TOP.png]
//
// Drives Chromium through the DevTools protocol over --remote-debugging-pipe
// (fd 3: commands in, fd 4: answers out, each message NUL-terminated), so it
// needs nothing but Node: no npm package, no port. Every request the page
// makes is intercepted (Fetch domain) and failed unless it is the report's
// own file:// load or a data: URL, and counted: the network is blocked and
// the count says whether the report tried it. Collected: console errors and
// uncaught exceptions, the step count in the DOM (sections and the
// data-steps attribute), each image's complete/naturalWidth/naturalHeight,
// the Content-Security-Policy meta tag, whether an injected script ran
// (window.__amc_pwned), and a full-page screenshot. The page is laid out
// 1400 px wide (viewport 1400x900): its height (page_height) and where the
// step index ends (index_bottom: the lowest thumbnail or status of the
// index, index_items: its entries, index_thumbs: decoded thumbnails,
// index_status: entries whose status shows) are measured; TOP.png, when
// given, is the first 900 px as a reader sees them on opening it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [chrome, report, shot, top] = process.argv.slice(2);
if (!chrome || !report || !shot) {
	console.error('usage: node browser_check.mjs CHROMIUM REPORT.html SCREENSHOT.png');
	process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), 'amc-chromium-'));
const args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
	'--disable-extensions', '--disable-background-networking', '--disable-component-update',
	'--disable-sync', '--metrics-recording-only', '--disable-default-apps', '--mute-audio',
	'--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'];
const child = spawn(chrome, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => { stderr += d; if (stderr.length > 20000) stderr = stderr.slice(-20000); });
const out = child.stdio[3], inp = child.stdio[4];

let nextId = 1;
const pending = new Map();
const listeners = [];
let buf = Buffer.alloc(0);
inp.on('data', (chunk) => {
	buf = Buffer.concat([buf, chunk]);
	let z;
	while ((z = buf.indexOf(0)) >= 0) {
		const msg = JSON.parse(buf.subarray(0, z).toString('utf8'));
		buf = buf.subarray(z + 1);
		if (msg.id && pending.has(msg.id)) {
			const { ok, fail } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) fail(new Error(`${msg.error.message} (${msg.error.code})`));
			else ok(msg.result);
		} else if (msg.method) {
			for (const l of listeners) l(msg);
		}
	}
});
function send(method, params = {}, sessionId) {
	const id = nextId++;
	const m = { id, method, params };
	if (sessionId) m.sessionId = sessionId;
	out.write(JSON.stringify(m) + '\0');
	return new Promise((ok, fail) => pending.set(id, { ok, fail }));
}
function waitFor(pred, ms, what) {
	return new Promise((ok, fail) => {
		const t = setTimeout(() => fail(new Error(`timed out waiting for ${what}`)), ms);
		listeners.push((m) => { if (pred(m)) { clearTimeout(t); ok(m); } });
	});
}

const result = { blocked: [], console_errors: [], exceptions: [], steps_dom: -1, steps_attr: -1, images: [],
	csp: null, pwned: null, screenshot_bytes: 0, scripts: -1, injected: -1 };
const wall = setTimeout(() => {
	console.log(JSON.stringify({ ...result, error: 'wall-clock limit (60 s)', chromium_stderr: stderr.slice(-2000) }));
	child.kill('SIGKILL');
	process.exit(1);
}, 60000);

try {
	const url = pathToFileURL(resolve(report)).href;
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	listeners.push((m) => {
		if (m.sessionId !== sessionId) return;
		if (m.method === 'Fetch.requestPaused') {
			const u = m.params.request.url;
			if (u === url || u.startsWith('data:')) {
				send('Fetch.continueRequest', { requestId: m.params.requestId }, sessionId).catch(() => {});
			} else {
				result.blocked.push(u.slice(0, 200));
				send('Fetch.failRequest', { requestId: m.params.requestId, errorReason: 'BlockedByClient' },
					sessionId).catch(() => {});
			}
		} else if (m.method === 'Runtime.consoleAPICalled' && m.params.type === 'error') {
			result.console_errors.push(m.params.args.map((a) => a.value ?? a.description ?? '').join(' ').slice(0, 300));
		} else if (m.method === 'Runtime.exceptionThrown') {
			result.exceptions.push((m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text).slice(0, 300));
		} else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') {
			// a blocked request is our doing (counted above); anything else is the page's
			if (!/ERR_BLOCKED_BY_CLIENT/.test(m.params.entry.text))
				result.console_errors.push(m.params.entry.text.slice(0, 300));
		}
	});
	await send('Fetch.enable', { patterns: [{ urlPattern: '*' }] }, sessionId);
	await send('Runtime.enable', {}, sessionId);
	await send('Log.enable', {}, sessionId);
	await send('Page.enable', {}, sessionId);
	await send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false },
		sessionId);
	const loaded = waitFor((m) => m.sessionId === sessionId && m.method === 'Page.loadEventFired', 30000, 'the load event');
	await send('Page.navigate', { url }, sessionId);
	await loaded;
	await new Promise((r) => setTimeout(r, 300)); // late requests and errors, if any
	const ev = async (expression) => (await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)).result.value;
	result.steps_dom = await ev('document.querySelectorAll("section.step").length');
	result.steps_attr = await ev('Number((document.getElementById("steps") || {dataset: {}}).dataset.steps ?? -1)');
	result.images = await ev('Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight])');
	result.csp = await ev('(document.querySelector("meta[http-equiv=\\"Content-Security-Policy\\"]") || {}).content || null');
	result.pwned = await ev('typeof window.__amc_pwned === "undefined" ? null : String(window.__amc_pwned)');
	result.title = await ev('document.title');
	// markup that only hostile text could have made: none in an amc report
	result.scripts = await ev('document.scripts.length');
	result.injected = await ev('document.querySelectorAll("[onerror],[onload],iframe,svg,object,embed").length');
	result.page_height = await ev('document.documentElement.scrollHeight');
	const idx = await ev(`(() => {
		const items = Array.from(document.querySelectorAll('#index .strip li'));
		let bottom = 0, thumbs = 0, status = 0;
		for (const li of items) {
			for (const el of li.querySelectorAll('img.thumb, .st')) bottom = Math.max(bottom, el.getBoundingClientRect().bottom + window.scrollY);
			const im = li.querySelector('img.thumb');
			if (im && im.complete && im.naturalWidth > 0) thumbs++;
			const st = li.querySelector('.st');
			if (st && st.getBoundingClientRect().height > 0 && st.textContent.trim()) status++;
		}
		const jump = document.querySelector('#index .jump');
		return [items.length, thumbs, status, Math.ceil(bottom), jump ? Math.ceil(jump.getBoundingClientRect().bottom) : -1];
	})()`);
	[result.index_items, result.index_thumbs, result.index_status, result.index_bottom, result.jump_bottom] = idx;
	if (top) {
		const t = await send('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: 1400, height: 900, scale: 1 } }, sessionId);
		writeFileSync(top, Buffer.from(t.data, 'base64'));
	}
	const { data } = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true }, sessionId);
	const png = Buffer.from(data, 'base64');
	writeFileSync(shot, png);
	result.screenshot_bytes = png.length;
	console.log(JSON.stringify(result));
	clearTimeout(wall);
	await send('Browser.close').catch(() => {});
} catch (err) {
	console.log(JSON.stringify({ ...result, error: String(err.message || err), chromium_stderr: stderr.slice(-2000) }));
	clearTimeout(wall);
	child.kill('SIGKILL');
	process.exitCode = 1;
} finally {
	setTimeout(() => { child.kill('SIGKILL'); try { rmSync(profile, { recursive: true, force: true }); } catch {} process.exit(); }, 500);
}
