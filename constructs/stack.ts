/**
 * {@link DqStack}: a TerraformStack with a namespace and the `dq` provider block.
 */
import { LocalBackend, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import { DqProvider } from './generated/provider';
import { addLocalDiagnostic } from './internal';
import { checkKeys } from './prop-keys';
import { CLIENT_SECRET_NAME_MESSAGE, CLIENT_SECRET_SUFFIX, RESOURCE_TYPES } from '../schemas/model/manifest';
import { diagnosticsWith, formatDiagnostic, resolveStack } from './validation';

/** Props of {@link DqStack}. Credentials never go here: they come from the environment. */
export interface DqStackProps {
  /**
   * The namespace: the `configId` of every alert, rule and SQL test this stack manages, and the
   * boundary of pruning. Lower-case letters, digits, `_`, `-`, `.`; at most 63 characters.
   */
  readonly namespace: string;
  /** Platform region. @default - `DQ_REGION` from the environment, else "eu" */
  readonly region?: 'eu' | 'us' | 'au';
  /** Platform base URL (overrides region). @default - `DQ_BASE_URL` from the environment */
  readonly baseUrl?: string;
  /**
   * Where this stack's rule previews go over gRPC: `host:port`, `https://host:port` or
   * `http://host:port` (the emulator prints it as `DQ_GRPC_ENDPOINT=...`). `DQ_GRPC_ENDPOINT`
   * is used only by stacks that set no platform of their own.
   * @default - the baseUrl's host on port 443; none for a baseUrl on this machine (the plan says why)
   */
  readonly grpcEndpoint?: string;
  /**
   * The NAMES of the environment variables this stack's credentials come from, e.g.
   * `{ clientId: 'DQ_PROD_CLIENT_ID', clientSecret: 'DQ_PROD_CLIENT_SECRET' }`; never the
   * credentials themselves (a value that is not a variable name fails synth). The client
   * secret's variable must end in `_CLIENT_SECRET` (dqform withholds and masks such variables).
   * @default - `DQ_CLIENT_ID` and `DQ_CLIENT_SECRET`
   */
  readonly credentialsFrom?: CredentialsFromProps;
}

/** See {@link DqStackProps.credentialsFrom}. */
export interface CredentialsFromProps {
  /** The variable holding the client id. @default "DQ_CLIENT_ID" */
  readonly clientId?: string;
  /** The variable holding the client secret: a name ending in `_CLIENT_SECRET`. @default "DQ_CLIENT_SECRET" */
  readonly clientSecret?: string;
}

/** An http(s) URL that carries no user name or password. */
function isPlatformUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** An environment variable's name (schemas/model/manifest.ts ENV_VAR_NAME). */
const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
const CREDENTIALS_FROM_KEYS = { clientId: 'client_id', clientSecret: 'client_secret' } as const;
/** The keys of {@link DqStackProps} and {@link RemovedOptions}: any other is a typo (checkKeys). */
const STACK_PROPS_KEYS: readonly (keyof DqStackProps)[] = ['namespace', 'region', 'baseUrl', 'grpcEndpoint', 'credentialsFrom'];
const REMOVED_OPTIONS_KEYS: readonly (keyof RemovedOptions)[] = ['id', 'destroy'];

/** The types a `removed` address may name: every resource type (schemas/model/manifest.ts), sorted. */
const REMOVABLE: readonly string[] = [...RESOURCE_TYPES].sort();

/** Options of {@link DqStack.removed}. */
export interface RemovedOptions {
  /** The object's id (alerts: fqn) when it was pinned, moved or imported, so not derived from the address. */
  readonly id?: string;
  /**
   * false: stop managing the object and leave it in place (Terraform's
   * `lifecycle { destroy = false }`). Keep the declaration while the object exists: an object
   * whose id carries the namespace's tag (or whose configId is the namespace) would otherwise be
   * pruned by the next plan. @default true
   */
  readonly destroy?: boolean;
}
const STACK = Symbol.for('dqform.constructs.DqStack');

/**
 * A stack of dqform resources. Writes `provider.dq = [{ namespace, region?, base_url? }]`,
 * `terraform.required_providers.dq = { source: "dqform/dq", version }` and a local backend
 * with a relative path (`terraform.<stack id>.tfstate`), so synth output names no path of the
 * machine. Validates every construct in it at synth (see {@link collectDiagnostics}).
 */
export class DqStack extends TerraformStack {
  /** True for a {@link DqStack} (also across copies of this package). */
  static isDqStack(x: unknown): x is DqStack {
    return typeof x === 'object' && x !== null && STACK in x;
  }
  /** The stack's namespace. */
  readonly namespace: string;
  /** The provider construct. */
  readonly provider: DqProvider;
  private readonly removedAddresses: string[] = [];
  private readonly removedIds = new Map<string, string>();
  private readonly removedKeep = new Set<string>();
  /** Set by {@link prepareStack}: this stack is being synthesised; cleared by {@link toTerraform}. */
  private preparedForSynth = false;
  /** This synthesis' resolved JSON, from validation, for the next {@link toTerraform}. */
  private synthJson?: unknown;

  constructor(scope: Construct, id: string, props: DqStackProps) {
    super(scope, id);
    Object.defineProperty(this, STACK, { value: true });
    this.namespace = props.namespace;
    checkKeys(this, '', props, STACK_PROPS_KEYS);
    new LocalBackend(this, { path: `terraform.${id}.tfstate` });
    this.provider = new DqProvider(this, 'dq', { namespace: props.namespace, region: props.region, baseUrl: props.baseUrl });
    if (props.credentialsFrom !== undefined) this.credentialsFrom(props.credentialsFrom);
    if (props.grpcEndpoint !== undefined) {
      if (typeof props.grpcEndpoint === 'string' && /^((https?:\/\/)?[^\s/@]+:\d{1,5}|https:\/\/[^\s/@:]+)\/?$/.test(props.grpcEndpoint)) this.provider.addOverride('grpc_endpoint', props.grpcEndpoint);
      else addLocalDiagnostic(this, { field: 'grpcEndpoint', summary: 'is not a gRPC endpoint without credentials (host:port, https://host:port or http://host:port)', hint: 'Write e.g. grpcEndpoint: "127.0.0.1:8788" (what the emulator prints as DQ_GRPC_ENDPOINT=...).' });
    }
    if (props.baseUrl !== undefined && !isPlatformUrl(props.baseUrl)) {
      addLocalDiagnostic(this, { field: 'baseUrl', summary: `"${props.baseUrl.replace(/\/\/[^/@]*@/, '//[REDACTED]@')}" is not an http(s) URL without credentials`, hint: 'Write the platform\'s base URL, e.g. https://developer.eu.platform.example (credentials come from the environment: credentialsFrom).' });
    }
    this.node.addValidation({ validate: () => this.validateForSynth() });
  }

  /** Checks `credentialsFrom` (names only) and writes `provider.dq.credentials_from`. */
  private credentialsFrom(from: CredentialsFromProps): void {
    const names: Record<string, string> = {};
    const given = (typeof from === 'object' && from !== null ? from : {}) as Record<string, unknown>;
    if (given !== from) addLocalDiagnostic(this, { field: 'credentialsFrom', summary: 'credentialsFrom must be an object: { clientId: "DQ_PROD_CLIENT_ID", clientSecret: "DQ_PROD_CLIENT_SECRET" }' });
    checkKeys(this, 'credentialsFrom', given, Object.keys(CREDENTIALS_FROM_KEYS));
    for (const [key, value] of Object.entries(given)) {
      const tf = (CREDENTIALS_FROM_KEYS as Record<string, string>)[key];
      if (!tf) continue; // an unknown key: checkKeys said so
      if (value === undefined) continue;
      if (typeof value !== 'string' || !ENV_VAR_NAME.test(value)) {
        // never echo the value: it may be the secret itself
        addLocalDiagnostic(this, {
          field: `credentialsFrom.${key}`,
          summary: `must be the NAME of an environment variable (upper-case letters, digits and "_"), not a credential`,
          hint: `Write the variable's name, e.g. credentialsFrom: { ${key}: "DQ_PROD_${key === 'clientId' ? 'CLIENT_ID' : 'CLIENT_SECRET'}" }, and set that variable where dqform plans and applies.`,
        });
        continue;
      }
      if (key === 'clientSecret' && !value.endsWith(CLIENT_SECRET_SUFFIX)) {
        addLocalDiagnostic(this, {
          field: 'credentialsFrom.clientSecret',
          summary: CLIENT_SECRET_NAME_MESSAGE,
          hint: `Name the variable so that it ends in ${CLIENT_SECRET_SUFFIX}, e.g. credentialsFrom: { clientSecret: "DQ_PROD_CLIENT_SECRET" }, and set that variable where dqform plans and applies.`,
        });
        continue;
      }
      names[tf] = value;
    }
    if (Object.keys(names).length) this.provider.addOverride('credentials_from', names);
  }

  /**
   * Validation of this stack (registered with `node.addValidation`). During `app.synth()` (this
   * stack was prepared) the stack's Terraform JSON is resolved once here, validated, and, when
   * valid, handed to the {@link toTerraform} call that follows, so synth resolves the stack
   * once for both.
   */
  private validateForSynth(): string[] {
    this.synthJson = undefined;
    const resolved = new Map<TerraformStack, ReturnType<typeof resolveStack>>();
    if (this.preparedForSynth) resolved.set(this, resolveStack(this));
    const errors = diagnosticsWith(this, resolved).filter((d) => d.severity === 'error').map(formatDiagnostic);
    if (errors.length === 0 && this.preparedForSynth) this.synthJson = resolved.get(this);
    return errors;
  }

  /** Marks the start of a synthesis of this stack (cdktf prepares every stack first). */
  override prepareStack(): void {
    super.prepareStack();
    this.synthJson = undefined;
    this.preparedForSynth = true;
  }

  /**
   * The stack's Terraform JSON: the one resolved by this synthesis' validation when there is one
   * (nothing changes between the two), else resolved now.
   */
  override toTerraform(): unknown {
    const json = this.synthJson;
    this.synthJson = undefined;
    this.preparedForSynth = false;
    return json ?? super.toTerraform();
  }

  /**
   * Declares what happens to the object that lived at `address` (`dq_domain.old_name`) now that
   * its construct is gone. Emits a Terraform `removed { from, id?, lifecycle { destroy } }` block.
   * - `destroy: true` (the default) deletes it. Rarely needed: removing a construct already
   *   prunes its object by namespace; use it for an object whose id was pinned or imported
   *   (pass `id`). dqform never deletes an object made in the UI or of another namespace,
   *   whatever this says (the plan refuses).
   * - `destroy: false` stops managing it and leaves it in place.
   */
  removed(address: string, opts: RemovedOptions = {}): void {
    const type = address.split('.')[0];
    if (address.split('.').length !== 2 || !REMOVABLE.includes(type)) {
      addLocalDiagnostic(this, {
        field: `removed[${this.removedAddresses.length}]`,
        summary: `removed("${address}"): expected "<type>.<name>" with type one of ${REMOVABLE.join(', ')}`,
        hint: 'name the address the construct had, e.g. dq_owner.data_team',
      });
    }
    checkKeys(this, `removed[${this.removedAddresses.length}]`, opts, REMOVED_OPTIONS_KEYS);
    this.removedAddresses.push(address);
    if (opts.id) this.removedIds.set(address, opts.id);
    if (opts.destroy === false) this.removedKeep.add(address);
    const blocks = [...this.removedAddresses]
      .sort()
      .map((from) => ({ from, ...(this.removedIds.has(from) ? { id: this.removedIds.get(from) } : {}), lifecycle: { destroy: !this.removedKeep.has(from) } }));
    this.addOverride('removed', blocks);
  }
  /** The addresses declared with {@link removed}, sorted. */
  get removedList(): readonly string[] {
    return [...this.removedAddresses].sort();
  }
}
