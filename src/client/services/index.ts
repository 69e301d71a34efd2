/** Per-service modules and the {@link PlatformClient} facade. */
import { ClientConfig, resolveConfig, resolveGrpcConfig, resolveLimits, resolveProxy } from '../config';
import { DqClient, DqClientOptions } from '../http';
import { ServiceMembers } from './index.generated';

export * from './_base';
export * from './index.generated';
export * from './previews';

/**
 * Every service of the platform API dqform uses, over one shared {@link DqClient}: one member per
 * `export class <Name>Service` in this folder (`ServiceMembers`, written by `npm run registries`).
 */
export class PlatformClient extends ServiceMembers {
  /** A client from a resolved configuration plus HTTP options. */
  static create(config: ClientConfig, opts: Omit<DqClientOptions, keyof ClientConfig> = {}): PlatformClient {
    return new PlatformClient(new DqClient({ ...opts, ...config }));
  }

  /**
   * A client from the environment (`DQ_CLIENT_ID`, `DQ_CLIENT_SECRET`, `DQ_BASE_URL` or
   * `DQ_REGION`; `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`; `DQ_GRPC_ENDPOINT`, `DQ_GRPC_PACKAGE`,
   * `DQ_PREVIEW_TRANSPORT`; `DQ_TIMEOUT`, `DQ_MAX_RESPONSE_MB`). @throws ConfigError naming missing or unusable variables.
   */
  static fromEnv(env: NodeJS.ProcessEnv = process.env, opts: Omit<DqClientOptions, keyof ClientConfig> = {}): PlatformClient {
    const limits = resolveLimits(env);
    return PlatformClient.create(resolveConfig(env), { proxy: resolveProxy(env), ...limits, ...opts, grpc: { deadlineMs: limits.timeoutMs, ...resolveGrpcConfig(env), ...opts.grpc } });
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.http.close();
  }
}
