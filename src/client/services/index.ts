/** Per-service modules and the {@link PlatformClient} facade. */
import { ClientConfig, resolveConfig, resolveGrpcConfig, resolveLimits, resolveProxy } from '../config';
import { DqClient, DqClientOptions } from '../http';
import { AlertsService } from './alerts';
import { CategorisationRulesService } from './categorisation-rules';
import { DeploymentRulesService } from './deployment-rules';
import { EntitiesService } from './entities';
import { DataProductsService, DomainsService, OwnersService } from './governance';
import { IamService } from './iam';
import { IntegrationsService } from './integrations';
import { QueriesService } from './queries';
import { SqlTestRulesService } from './sql-test-rules';
import { SqlTestsService } from './sql-tests';

export * from './_base';
export * from './alerts';
export * from './categorisation-rules';
export * from './deployment-rules';
export * from './entities';
export * from './governance';
export * from './iam';
export * from './integrations';
export * from './queries';
export * from './sql-test-rules';
export * from './sql-tests';
export * from './previews';

/** Every service of the platform API dqform uses, over one shared {@link DqClient}. */
export class PlatformClient {
  readonly alerts: AlertsService;
  readonly deploymentRules: DeploymentRulesService;
  readonly sqlTests: SqlTestsService;
  readonly sqlTestRules: SqlTestRulesService;
  readonly domains: DomainsService;
  readonly dataProducts: DataProductsService;
  readonly owners: OwnersService;
  readonly categorisationRules: CategorisationRulesService;
  readonly integrations: IntegrationsService;
  readonly queries: QueriesService;
  readonly iam: IamService;
  readonly entities: EntitiesService;

  constructor(readonly http: DqClient) {
    this.alerts = new AlertsService(http);
    this.deploymentRules = new DeploymentRulesService(http);
    this.sqlTests = new SqlTestsService(http);
    this.sqlTestRules = new SqlTestRulesService(http);
    this.domains = new DomainsService(http);
    this.dataProducts = new DataProductsService(http);
    this.owners = new OwnersService(http);
    this.categorisationRules = new CategorisationRulesService(http);
    this.integrations = new IntegrationsService(http);
    this.queries = new QueriesService(http);
    this.iam = new IamService(http);
    this.entities = new EntitiesService(http);
  }

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
