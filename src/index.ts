/** dqform's package root. */
export * from '../constructs';
