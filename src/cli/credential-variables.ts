/**
 * Which environment variables hold a client secret. A module of its own, with no imports, so that
 * `dqform --version` and `help` (src/cli/main.ts) can mask them without loading zod or the engine.
 */

/** Whether a variable name holds a client secret: DQ_CLIENT_SECRET, or any name ending in _CLIENT_SECRET. */
export const isCredentialVariable = (name: string): boolean => name === 'DQ_CLIENT_SECRET' || name.endsWith('_CLIENT_SECRET');

/** The credential variables set (non-empty) in `env`, sorted. */
export function credentialVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((k) => isCredentialVariable(k) && (env[k] ?? '').trim() !== '')
    .sort();
}
