/**
 * SLOW (about 20-30 s: it runs `npm run build` through `npm pack`'s prepack, once for the file).
 *
 * What the tarball holds (`npm pack --json` lists it): the compiled package and the schemas, no
 * build tools (codegen, schema generator, bench), no source maps (the sources are not shipped),
 * and the JSON Schema where editors find it from node_modules.
 *
 * A new user's view: `npm pack` the repository, install the tarball into an empty directory
 * next to cdktf and constructs, write a `main.ts` that imports every construct from `dqform`,
 * type-check it against the packed declarations and synthesise it. No network: the tarball is
 * unpacked into `node_modules/dqform` and its runtime dependencies are symlinked from this
 * repository's node_modules (what `npm install` would put there).
 */
import { packRepository } from './pack-once';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { planImport, renderTs } from '../../src/engine/import';
import { deriveId } from '../../src/engine/identity';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

const MAIN_TS = `import { App } from 'cdktf';
import {
  Alert, Contact, DataProduct, Domain, DqStack, Entity, MonitorDeploymentRule, Owner, Ownership, Query,
  SqlTest, SqlTestDeploymentRule, Target, validateApp, type Diagnostic,
} from 'dqform';

const app = new App({ outdir: 'cdktf.out' });
const stack = new DqStack(app, 'newcomer', { namespace: 'newcomer' });
const owner = new Owner(stack, 'me', { title: 'Me', contacts: [Contact.email(['me@example.com'])] });
const domain = new Domain(stack, 'things', { name: 'Things' });
const product = new DataProduct(stack, 'stuff', { title: 'Stuff', domain, parts: [{ query: Query.withName('stuff') }] });
new Ownership(stack, 'mine', { owner, dataProduct: product });
new Alert(stack, 'errors', {
  name: 'Errors',
  issueLifecycle: { trigger: Query.withType('table'), targets: [Target.owner(owner)], settings: { severities: ['SEVERITY_ERROR'] } },
});
new MonitorDeploymentRule(stack, 'tables', {
  title: 'Tables',
  queryConfig: { query: 'with_type("table")', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] },
});
new SqlTest(stack, 'not_null', {
  name: 'id not null', platform: { integrationId: 'wh' }, recurrenceRule: 'FREQ=DAILY',
  template: { identifier: Entity.warehouseAccountTable({ account: 'a', database: 'd', schema: 's', table: 't' }), notNull: { columns: ['id'] } },
});
new SqlTestDeploymentRule(stack, 'rule', {
  title: 'Rule', staticConfig: { path: 'a::b::c', tests: [{ name: 'u', unique: { columns: ['id'] } }], recurrenceRule: 'DTSTART:20260101T000000Z\\nRRULE:FREQ=DAILY' },
});
const problems: Diagnostic[] = validateApp(app);
if (problems.length) throw new Error(JSON.stringify(problems));
app.synth();
`;

/** Runs a command; on failure the error carries its output. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  try {
    execFileSync(cmd, args, { cwd, env, stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

const env = { ...process.env, CHECKPOINT_DISABLE: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
let tmp: string;
let tarball: string;
let files: string[];
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-pack-'));
  ({ tarball, files } = packRepository(tmp, env));
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Unpacks the tarball into `app`/node_modules/dqform, its runtime dependencies symlinked from this repository (what npm install would put there). */
function installPacked(app: string): { pkgDir: string; manifest: { dependencies: Record<string, string>; main: string } } {
  const pkgDir = path.join(app, 'node_modules', 'dqform');
  fs.mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1']);
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; main: string };
  for (const dep of Object.keys(manifest.dependencies)) {
    fs.mkdirSync(path.dirname(path.join(app, 'node_modules', dep)), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(app, 'node_modules', dep), 'dir');
  }
  return { pkgDir, manifest };
}

it('the tarball holds the compiled package and its schemas: no build tools, no source maps without sources', () => {
  expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'bin/dqform.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/cli/v8-start.js', 'dist/bundle/dqform.js', 'dist/bundle/dqform-rest.js', 'dist/bundle/dqform-grpc.js', 'dist/constructs/index.js', 'schemas/dqform.schema.json']));
  const unexpected = files.filter((f) => !/^(package\.json|README\.md|LICENSE|bin\/dqform\.js|dist\/.+\.(js|d\.ts)|schemas\/[^/]+\.json|schemas\/proto\/.+\.proto|schemas\/proto\/subset\.generated\.json)$/.test(f));
  expect(unexpected).toEqual([]);
  // no source maps: the .ts sources are not in the package, a map pointing at them would dangle
  expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
  expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  // no build tools: the constructs' code generator, the JSON Schema generator, the benchmark
  expect(files.filter((f) => /codegen|generate-json-schema|bench\/|^(dist\/)?tools\/|esbuild/.test(f))).toEqual([]);
  // the bundle is the only thing under dist/bundle (no metafile, no map)
  expect(files.filter((f) => f.startsWith('dist/bundle/'))).toEqual(['dist/bundle/dqform-grpc.js', 'dist/bundle/dqform-rest.js', 'dist/bundle/dqform.js']);
  // the schema editors are pointed at, at the path an installed package has it
  expect(files).toContain('schemas/dqform.schema.json');
});

it('npm pack -> install into an empty directory -> import every construct from "dqform" -> synth', () => {
  {
    expect(fs.existsSync(tarball)).toBe(true);

    const app = path.join(tmp, 'app');
    const { pkgDir, manifest } = installPacked(app);
    // The tarball holds compiled JS and declarations, not the sources.
    expect(fs.existsSync(path.join(pkgDir, manifest.main))).toBe(true);
    expect(fs.existsSync(path.join(pkgDir, 'constructs'))).toBe(false);
    // ...and the .proto subset, whose JSON descriptor the gRPC previews load at run time, found from the compiled code.
    expect(fs.existsSync(path.join(pkgDir, 'schemas', 'proto', 'platform', 'monitors', 'automated_monitors', 'v1', 'deployment_rules.proto'))).toBe(true);
    expect(fs.existsSync(path.join(pkgDir, 'schemas', 'proto', 'subset.generated.json'))).toBe(true);
    const loaded = execFileSync(
      process.execPath,
      ['-e', "const g = require('dqform/dist/schemas/platform/grpc'); const r = g.protoRegistry(); console.log(g.protoDir() + ' ' + r.encode(g.PREVIEW_METHODS.GetDeployDeleteOverview.requestType, { id: 'x' }).toString('hex'))"],
      { cwd: app, env, encoding: 'utf8' },
    ).trim();
    expect(loaded).toBe(`${fs.realpathSync(path.join(pkgDir, 'schemas', 'proto'))} 0a0178`);
    // the installed bin runs the bundle (a preload writes what loaded)
    const report = path.join(tmp, 'loaded.json');
    fs.writeFileSync(path.join(tmp, 'loaded.js'), `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));\n`);
    const version = execFileSync(process.execPath, ['-r', path.join(tmp, 'loaded.js'), path.join(pkgDir, 'bin', 'dqform.js'), '--version'], { cwd: app, env: { ...env, DQFORM_CACHE_DIR: path.join(tmp, 'cache') }, encoding: 'utf8' });
    expect(version.trim()).toBe(JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version);
    expect((JSON.parse(fs.readFileSync(report, 'utf8')) as string[]).map((k) => path.relative(fs.realpathSync(pkgDir), k)).filter((k) => !k.startsWith('..')).sort()).toEqual(['bin/dqform.js', 'dist/bundle/dqform.js', 'dist/src/cli/v8-start.js']);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'newcomer', private: true, dependencies: { dqform: '0.1.0' } }));
    fs.writeFileSync(path.join(app, 'main.ts'), MAIN_TS);
    fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'npx tsx main.ts' }));

    // Type-check the user's code against the packed declarations.
    fs.writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, esModuleInterop: true, module: 'commonjs', moduleResolution: 'node', target: 'ES2022', types: [] }, files: ['main.ts'] }),
    );
    run(path.join(BIN, 'tsc'), ['-p', '.'], app, env);
    // Synthesise.
    run(path.join(BIN, 'tsx'), ['main.ts'], app, env);

    const json = JSON.parse(fs.readFileSync(path.join(app, 'cdktf.out', 'stacks', 'newcomer', 'cdk.tf.json'), 'utf8')) as { resource: Record<string, Record<string, Record<string, unknown>>>; provider: Record<string, unknown> };
    expect(Object.keys(json.resource).sort()).toEqual(['dq_alert', 'dq_data_product', 'dq_domain', 'dq_monitor_deployment_rule', 'dq_owner', 'dq_ownership', 'dq_sql_test', 'dq_sql_test_deployment_rule']);
    expect(json.provider).toEqual({ dq: [{ namespace: 'newcomer' }] });
    expect(json.resource.dq_ownership.mine).toMatchObject({ owner_id: '${dq_owner.me.id}', selection: { dataproduct_id: '${dq_data_product.stuff.id}' } });
    expect(json.resource.dq_alert.errors).toMatchObject({ issue_lifecycle: { targets: [{ owner: { owner_path: '${dq_owner.me.entity_id}' } }] } });
  }
}, 120_000);

it("dqform import's TypeScript runs as the app of an ES module project (\"type\": \"module\": no require.main) against the packed dqform", () => {
  const app = path.join(tmp, 'esm-app');
  installPacked(app);
  const id = deriveId('demo', 'shop', 'dq_owner', 'data_team');
  const r = planImport([{ type: 'dq_owner', key: id, raw: { id, title: 'Data team' } }], { namespace: 'shop', workspace: 'demo' });
  const text = renderTs(r, { namespace: 'shop' });
  expect(text).not.toMatch(/require\.main/);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'esm-app', private: true, type: 'module' }));
  fs.writeFileSync(path.join(app, 'main.ts'), text);
  run(path.join(BIN, 'tsx'), ['main.ts'], app, env);
  const json = JSON.parse(fs.readFileSync(path.join(app, 'cdktf.out', 'stacks', 'shop', 'cdk.tf.json'), 'utf8')) as { resource: Record<string, Record<string, Record<string, unknown>>> };
  expect(Object.values(json.resource.dq_owner)).toEqual([expect.objectContaining({ id, title: 'Data team' })]);
}, 60_000);
