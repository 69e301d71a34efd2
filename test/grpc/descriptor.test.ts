/**
 * The gRPC previews load the `.proto` subset from a JSON descriptor generated from it (`npm run
 * proto`, tools/proto-descriptor.ts): the committed descriptor must be what the `.proto` files
 * give now, and the registry built from it must be the subset's.
 *
 * @gateway-exempt starts no emulator: it reads the .proto files and the descriptor
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DESCRIPTOR_FILE, PREVIEW_METHODS, protoDir, protoRegistry } from '../../schemas/platform/grpc';
import { descriptorText, GENERATED_NOTE } from '../../tools/proto-descriptor';

const committed = fs.readFileSync(path.join(protoDir(), DESCRIPTOR_FILE), 'utf8');

it(`schemas/proto/${DESCRIPTOR_FILE} is up to date (run \`npm run proto\` when this fails)`, () => {
  expect(JSON.parse(committed).generated).toBe(GENERATED_NOTE);
  expect(committed).toBe(descriptorText());
});

it('a change to a .proto file makes the descriptor stale', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-proto-'));
  try {
    fs.cpSync(protoDir(), tmp, { recursive: true });
    const file = path.join(tmp, 'platform', 'monitors', 'automated_monitors', 'v1', 'deployment_rules.proto');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/message GetDeployDeleteOverviewRequest \{/, 'message GetDeployDeleteOverviewRequest {\n  string extra_field = 99;'));
    const text = descriptorText(tmp);
    expect(text).not.toBe(committed);
    expect(text).toContain('"extraField"');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

it('the registry loaded from the descriptor has every preview message, in protojson names', () => {
  const reg = protoRegistry();
  for (const m of Object.values(PREVIEW_METHODS)) {
    expect(reg.type(m.requestType).fullName).toBe(`.${m.requestType}`);
    expect(reg.type(m.responseType).fullName).toBe(`.${m.responseType}`);
  }
  expect(Object.keys(reg.type(PREVIEW_METHODS.GetDeployOverview.requestType).fields)).toEqual(['deploymentRule']);
  expect(reg.encode(PREVIEW_METHODS.GetDeployDeleteOverview.requestType, { id: 'x' }).toString('hex')).toBe('0a0178');
});

it('a missing descriptor is named, with what to do (not a bare ENOENT from each preview)', () => {
  jest.isolateModules(() => {
    const fresh = require('../../schemas/platform/grpc') as typeof import('../../schemas/platform/grpc');
    // the module's own fs (the test's `fs` is an import wrapper)
    const nodeFs = require('node:fs') as typeof fs;
    const real = nodeFs.readFileSync;
    const read = jest.spyOn(nodeFs, 'readFileSync').mockImplementation(((p: fs.PathOrFileDescriptor, o?: unknown) => {
      if (String(p).endsWith(DESCRIPTOR_FILE)) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${String(p)}'`), { code: 'ENOENT' });
      return (real as (p: fs.PathOrFileDescriptor, o?: unknown) => unknown)(p, o);
    }) as typeof fs.readFileSync);
    try {
      expect(() => fresh.protoRegistry()).toThrow(new RegExp(`gRPC descriptor .*${DESCRIPTOR_FILE.replace(/\./g, '\\.')} is missing; reinstall dqform \\(in a checkout of dqform: npm run proto\\)`));
    } finally {
      read.mockRestore();
    }
  });
});

