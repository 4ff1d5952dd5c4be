// recording-stub.js PORTFILE - a WebDriver stand-in for the one thing
// @appium/fake-driver lacks that amc uses: screen recording
// (appium/start_recording_screen, appium/stop_recording_screen, as
// UiAutomator2 and XCUITest answer them: null, then the video as base64).
// Listens on 127.0.0.1 on a free port, written to PORTFILE; records every
// request's method and path on stdout. Plain Node, no dependencies.
'use strict';
const http = require('http');
const fs = require('fs');
// the first bytes of an MP4 (an ftyp box) and a marker the test looks for
const VIDEO = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\0\0isommp41amc-recording-stub')]);
let recording = false;
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; if (body.length > 65536) req.destroy(); });
  req.on('end', () => {
    console.log(`${req.method} ${req.url} ${body.slice(0, 200)}`);
    const send = (status, value) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ value }));
    };
    const p = req.url;
    if (req.method === 'POST' && p === '/session')
      return send(200, { sessionId: 'stub-1', capabilities: { platformName: 'Android' } });
    if (req.method === 'DELETE' && p === '/session/stub-1')
      return send(200, null);
    if (req.method === 'POST' && p === '/session/stub-1/appium/start_recording_screen') {
      recording = true;
      return send(200, null);
    }
    if (req.method === 'POST' && p === '/session/stub-1/appium/stop_recording_screen') {
      if (!recording)
        return send(500, { error: 'unknown error', message: 'no recording is running' });
      recording = false;
      return send(200, VIDEO.toString('base64'));
    }
    send(404, { error: 'unknown command', message: `the stub does not answer ${req.method} ${p}` });
  });
});
server.listen(0, '127.0.0.1', () => fs.writeFileSync(process.argv[2], String(server.address().port)));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
