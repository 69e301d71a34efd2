/**
 * `IamService.Iam`: GET `/api/iam/v1` answers the caller's workspace, scopes, subject and
 * client type (any valid token; the way a tool learns its workspace).
 */
import { IamResponse } from '../../../schemas/platform/common';
import type { RouteContext, RouteTable } from '../app';

function whoAmI(ctx: RouteContext): IamResponse {
  return {
    workspace: ctx.principal.workspace,
    scopes: [...ctx.principal.scopes],
    subject: ctx.principal.subject,
    clientType: ctx.principal.clientType,
  };
}

/** The iam routes. */
export const routes: RouteTable = [
  { method: 'GET', path: '/api/iam/v1', scope: null, response: IamResponse, handle: whoAmI },
];
