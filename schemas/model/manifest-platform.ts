/**
 * The manifest's platform fields (schemas/model/manifest.ts `Manifest` is made with them): where
 * a stack is planned and with which credentials. A module of their own so that what needs only
 * them (the resolution cache's stack head, schemas/model/resolution-cache.ts) does not load every
 * kind's schema: a warm `validate` (issue 27, start-up).
 */
import { z } from 'zod';

/** An environment variable's name: upper-case letters, digits and "_", not starting with a digit. */
export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
const envVarName = z.string().regex(ENV_VAR_NAME, 'must be the NAME of an environment variable (upper-case letters, digits and "_", e.g. DQ_PROD_CLIENT_ID), never a credential itself');

/**
 * The suffix every client-secret variable's name ends with. dqform knows a secret by its name
 * alone before it reads any input (src/cli/credential-variables.ts): it withholds such variables
 * from the app on a fresh checkout, refuses them in a CI synth and masks their values, so a stack
 * may take its client secret only from a variable named this way.
 */
export const CLIENT_SECRET_SUFFIX = '_CLIENT_SECRET';
/** Why a `credentialsFrom.clientSecret` name that does not end in {@link CLIENT_SECRET_SUFFIX} is refused (the name is not echoed: it may be the secret). */
export const CLIENT_SECRET_NAME_MESSAGE = `must name a variable ending in ${CLIENT_SECRET_SUFFIX}, e.g. DQ_PROD_CLIENT_SECRET: dqform withholds only such variables from the app, refuses them in a CI synth and masks them in output`;

/** Where a stack's credentials come from: environment variable names. */
export const CredentialsFrom = z.strictObject({
  clientId: envVarName.optional().describe('the environment variable holding the client id (default DQ_CLIENT_ID)'),
  clientSecret: envVarName
    .refine((v) => !ENV_VAR_NAME.test(v) || v.endsWith(CLIENT_SECRET_SUFFIX), CLIENT_SECRET_NAME_MESSAGE)
    .optional()
    .describe(`the environment variable holding the client secret, a name ending in ${CLIENT_SECRET_SUFFIX} (default DQ_CLIENT_SECRET)`),
});
export type CredentialsFrom = z.infer<typeof CredentialsFrom>;

/** The platform fields of a manifest, in the manifest's order. */
export const ManifestPlatform = z.object({
  stack: z.string(),
  namespace: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,62}$/, 'namespace: lower-case letters, digits, "_", "-" and "."; at most 63 characters'),
  region: z.enum(['eu', 'us', 'au']).optional(),
  baseUrl: z.string().optional(),
  /** The gRPC endpoint of this stack's rule previews (`host:port`, `https://host:port`, `http://host:port`); see docs/environments.md. */
  grpcEndpoint: z.string().optional(),
  /**
   * The NAMES of the environment variables this stack's credentials come from (never their
   * values); absent: DQ_CLIENT_ID and DQ_CLIENT_SECRET.
   */
  credentialsFrom: CredentialsFrom.optional(),
});
