/** The typed API client: configuration, auth, HTTP core, errors, retries, paging, redaction. */
export * from './config';
export * from './redact';
export * from './errors';
export * from './auth';
export * from './retry';
export * from './attempts';
export * from './reachability';
export * from './limiter';
export * from './http';
export * from './grpc';
export * from './paging';
export * from './services';
