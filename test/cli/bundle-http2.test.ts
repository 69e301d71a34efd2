/**
 * The bundle's stand-in for `node:http2` in undici (tools/bundle.ts `http2StandIn`, issue 27):
 * undici's HTTP/2 client reads a few constants when it is loaded, which dqform (never asking for
 * HTTP/2) should not pay node's http2 module for. The constants it gives are node's, they are all
 * undici reads, and anything else comes from node:http2, loaded then.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http2 from 'node:http2';
import * as os from 'node:os';
import * as path from 'node:path';
import { HTTP2_CONSTANTS, http2StandIn } from '../../tools/bundle';

const ROOT = path.join(__dirname, '..', '..');

it("gives node's values for the constants undici's HTTP/2 client reads when loaded, and only those", () => {
  const constants = http2.constants as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(HTTP2_CONSTANTS)) expect([k, v]).toEqual([k, constants[k]]);
  // the names undici destructures from `http2.constants` at its top level
  const source = fs.readFileSync(require.resolve('undici/lib/dispatcher/client-h2.js', { paths: [ROOT] }), 'utf8');
  const block = /const\s*\{\s*constants:\s*\{([^}]*)\}\s*\}\s*=\s*http2/.exec(source);
  expect(block).not.toBeNull();
  const read = block![1].split(',').map((s) => s.trim()).filter(Boolean).sort();
  expect(read).toEqual(Object.keys(HTTP2_CONSTANTS).sort());
});

it('loads node:http2 only when a member other than those constants is read', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-http2-'));
  try {
    fs.writeFileSync(path.join(dir, 'stand-in.js'), http2StandIn());
    const script = `
      const loaded = () => process.moduleLoadList.some((m) => m === 'NativeModule http2');
      const h = require(${JSON.stringify(path.join(dir, 'stand-in.js'))});
      const { constants: { HTTP2_HEADER_PATH, NGHTTP2_CANCEL } } = h;
      const before = loaded();
      const other = h.constants.HTTP2_METHOD_GET;
      const connect = h.connect;
      console.log(JSON.stringify([HTTP2_HEADER_PATH, NGHTTP2_CANCEL, before, other, connect === require('node:http2').connect, loaded()]));
    `;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([':path', 8, false, 'GET', true, true]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
