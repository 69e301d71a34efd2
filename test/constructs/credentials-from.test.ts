/**
 * DqStack({ credentialsFrom }) and YAML `credentialsFrom:`: the NAMES of the variables a stack's
 * credentials come from reach the manifest; anything that is not a variable name is refused with
 * the construct path (or the YAML line) and field, without echoing it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DqStack } from '../../constructs';
import { loadSynthOutput, manifestFromTerraformJson, ManifestError } from '../../src/engine/manifest';
import { loadYamlWorkspace } from '../../src/engine/yaml';
import { newApp, synthError } from './synth';

const SECRET = 'prod-secret-value-0123';

it('DqStack: baseUrl, region and credentialsFrom reach the manifest (names only)', () => {
  const { app, outdir } = newApp();
  try {
    new DqStack(app, 'prod', { namespace: 'shop', baseUrl: 'https://prod.platform.example', credentialsFrom: { clientId: 'DQ_PROD_CLIENT_ID', clientSecret: 'DQ_PROD_CLIENT_SECRET' } });
    app.synth();
    const text = fs.readFileSync(path.join(outdir, 'stacks', 'prod', 'cdk.tf.json'), 'utf8');
    expect((JSON.parse(text) as { provider: { dq: unknown[] } }).provider.dq).toEqual([
      { namespace: 'shop', base_url: 'https://prod.platform.example', credentials_from: { client_id: 'DQ_PROD_CLIENT_ID', client_secret: 'DQ_PROD_CLIENT_SECRET' } },
    ]);
    const m = loadSynthOutput(outdir, 'prod');
    expect(m).toMatchObject({ baseUrl: 'https://prod.platform.example', credentialsFrom: { clientId: 'DQ_PROD_CLIENT_ID', clientSecret: 'DQ_PROD_CLIENT_SECRET' } });
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});

it('DqStack: a credential where a variable name belongs, or an unknown field, fails synth naming the path and field, never the value', () => {
  const msg = synthError((app) => new DqStack(app, 'prod', { namespace: 'shop', credentialsFrom: { clientId: 'DQ_PROD_CLIENT_ID', clientSecret: SECRET } }));
  expect(msg).toContain('[prod] prod: credentialsFrom.clientSecret: must be the NAME of an environment variable');
  expect(msg).not.toContain(SECRET);
  const typo = synthError((app) => new DqStack(app, 'prod', { namespace: 'shop', credentialsFrom: { clientSecrt: 'DQ_X' } as never }));
  expect(typo).toContain('credentialsFrom.clientSecrt: unknown property "clientSecrt" in credentialsFrom (did you mean "clientSecret"?)');
  expect(synthError((app) => new DqStack(app, 'prod', { namespace: 'shop', credentialsFrom: { clientId: 'DQ_PROD_CLIENT_ID' } }))).toBeUndefined();
});

describe('credentialsFrom.clientSecret must name a variable ending in _CLIENT_SECRET (dqform withholds, refuses in CI and masks only those)', () => {
  const RULE = 'credentialsFrom.clientSecret: must name a variable ending in _CLIENT_SECRET, e.g. DQ_PROD_CLIENT_SECRET';

  it('DqStack: fails synth naming the stack path and the field, with an example name', () => {
    const msg = synthError((app) => new DqStack(app, 'staging', { namespace: 'shop', credentialsFrom: { clientId: 'STAGING_ID', clientSecret: 'STAGING_SECRET' } }));
    expect(msg).toContain(`[staging] staging: ${RULE}`);
    expect(msg).toContain('credentialsFrom: { clientSecret: "DQ_PROD_CLIENT_SECRET" }');
    // the client id is no secret: any variable name does
    expect(synthError((app) => new DqStack(app, 'staging', { namespace: 'shop', credentialsFrom: { clientId: 'STAGING_ID', clientSecret: 'STAGING_CLIENT_SECRET' } }))).toBeUndefined();
  });

  it('cdk.tf.json (the engine\'s manifest check): refused naming the stack and the field', () => {
    expect(() => manifestFromTerraformJson({ provider: { dq: [{ namespace: 'shop', credentials_from: { client_secret: 'STAGING_SECRET' } }] } }, { stack: 'staging' })).toThrow(RULE);
    expect(() => manifestFromTerraformJson({ provider: { dq: [{ namespace: 'shop', credentials_from: { client_secret: 'DQ_CLIENT_SECRET' } }] } }, { stack: 'staging' })).not.toThrow();
  });

  it('YAML: an error at its line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-creds-yaml-'));
    try {
      const file = path.join(dir, 'dqform.yaml');
      fs.writeFileSync(file, 'namespace: shop\ncredentialsFrom:\n  clientId: STAGING_ID\n  clientSecret: STAGING_SECRET\n');
      let err: ManifestError | undefined;
      try {
        loadYamlWorkspace(file);
      } catch (e) {
        err = e as ManifestError;
      }
      expect(err).toBeInstanceOf(ManifestError);
      expect(err!.diagnostics.map((x) => `${x.source}: ${x.summary}`).join('\n')).toMatch(new RegExp(`dqform\\.yaml:4:\\d+: ${RULE.replace(/[.{}]/g, '\\$&')}`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

it('cdk.tf.json: credentials_from that is not a variable name is a manifest error naming the field, not the value', () => {
  let err: ManifestError | undefined;
  try {
    manifestFromTerraformJson({ provider: { dq: [{ namespace: 'shop', credentials_from: { client_secret: SECRET } }] } }, { stack: 'prod' });
  } catch (e) {
    err = e as ManifestError;
  }
  expect(err).toBeInstanceOf(ManifestError);
  expect(err!.message).toMatch(/credentialsFrom\.clientSecret: must be the NAME of an environment variable/);
  expect(err!.message).not.toContain(SECRET);
});

it('YAML: credentialsFrom names reach the manifest; a value or a typo is an error at its line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-creds-yaml-'));
  try {
    const file = path.join(dir, 'dqform.yaml');
    fs.writeFileSync(file, 'namespace: shop\nbaseUrl: https://prod.platform.example\ncredentialsFrom:\n  clientId: DQ_PROD_CLIENT_ID\n  clientSecret: DQ_PROD_CLIENT_SECRET\n');
    expect(loadYamlWorkspace(file)).toMatchObject({ baseUrl: 'https://prod.platform.example', credentialsFrom: { clientId: 'DQ_PROD_CLIENT_ID', clientSecret: 'DQ_PROD_CLIENT_SECRET' } });
    fs.writeFileSync(file, `namespace: shop\ncredentialsFrom:\n  clientId: DQ_PROD_CLIENT_ID\n  clientSecret: ${SECRET}\n  clientSecrt: DQ_X\n`);
    let err: ManifestError | undefined;
    try {
      loadYamlWorkspace(file);
    } catch (e) {
      err = e as ManifestError;
    }
    expect(err).toBeInstanceOf(ManifestError);
    const d = err!.diagnostics.map((x) => `${x.source}: ${x.summary} ${x.hint ?? ''}`).join('\n');
    expect(d).toMatch(/dqform\.yaml:4:\d+: credentialsFrom\.clientSecret: must be the NAME of an environment variable/);
    expect(d).toMatch(/dqform\.yaml:5:\d+: unknown field "clientSecrt" in credentialsFrom Did you mean "clientSecret"\?/);
    expect(d).not.toContain(SECRET);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('DqStack: a baseUrl that is not an http(s) URL, or carries credentials, fails synth naming the field (credentials masked)', () => {
  expect(synthError((app) => new DqStack(app, 'prod', { namespace: 'shop', baseUrl: 'developer.eu.platform.example' }))).toContain('[prod] prod: baseUrl: "developer.eu.platform.example" is not an http(s) URL without credentials');
  const withCreds = synthError((app) => new DqStack(app, 'prod', { namespace: 'shop', baseUrl: `https://user:${SECRET}@prod.platform.example` }));
  expect(withCreds).toContain('baseUrl: "https://[REDACTED]@prod.platform.example" is not an http(s) URL without credentials');
  expect(withCreds).not.toContain(SECRET);
  expect(synthError((app) => new DqStack(app, 'prod', { namespace: 'shop', baseUrl: 'http://127.0.0.1:8787' }))).toBeUndefined();
});

it('DqStack and YAML: grpcEndpoint (the stack\'s gRPC previews) reaches cdk.tf.json next to base_url and the manifest; a malformed one fails synth naming the field', () => {
  const { app, outdir } = newApp();
  try {
    new DqStack(app, 'staging', { namespace: 'shop', baseUrl: 'http://127.0.0.1:8787', grpcEndpoint: '127.0.0.1:8788' });
    app.synth();
    const doc = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', 'staging', 'cdk.tf.json'), 'utf8')) as { provider: { dq: unknown[] } };
    expect(doc.provider.dq).toEqual([{ namespace: 'shop', base_url: 'http://127.0.0.1:8787', grpc_endpoint: '127.0.0.1:8788' }]);
    expect(loadSynthOutput(outdir, 'staging')).toMatchObject({ baseUrl: 'http://127.0.0.1:8787', grpcEndpoint: '127.0.0.1:8788' });
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  expect(synthError((app) => new DqStack(app, 'staging', { namespace: 'shop', grpcEndpoint: 'grpc.example/path' }))).toContain('[staging] staging: grpcEndpoint: is not a gRPC endpoint');
  expect(synthError((app) => new DqStack(app, 'staging', { namespace: 'shop', grpcEndpoint: 'https://grpc.staging.example' }))).toBeUndefined();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-grpc-yaml-'));
  try {
    const file = path.join(dir, 'dqform.yaml');
    fs.writeFileSync(file, 'namespace: shop\nbaseUrl: http://127.0.0.1:8787\ngrpcEndpoint: 127.0.0.1:8788\n');
    expect(loadYamlWorkspace(file)).toMatchObject({ baseUrl: 'http://127.0.0.1:8787', grpcEndpoint: '127.0.0.1:8788' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
