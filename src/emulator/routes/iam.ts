/**
 * `IamService.Iam`: GET `/api/iam/v1` answers the caller's workspace, scopes, subject and
 * client type (any valid token; the way a tool learns its workspace).
 */
import { IamResponse } from '../../../schemas/platform/common';
import type { EmulatorApp } from '../app';

/** Registers the IAM route. */
export function register(app: EmulatorApp): void {
  app.route('GET', '/api/iam/v1', { scope: null, response: IamResponse }, (ctx): IamResponse => ({
    workspace: ctx.principal.workspace,
    scopes: [...ctx.principal.scopes],
    subject: ctx.principal.subject,
    clientType: ctx.principal.clientType,
  }));
}
