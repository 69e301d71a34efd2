/** IAM: how a tool learns its workspace. Routes: ROUTES.md. */
import { IamResponse } from '../../../schemas/platform/common';
import { Service } from './_base';

export class IamService extends Service {
  /** Iam GET `/api/iam/v1` -> `{ workspace, scopes[], subject, clientType }` (any valid token). */
  get(): Promise<IamResponse> {
    return this.http.call({ method: 'GET', path: '/api/iam/v1', responseSchema: IamResponse, idempotent: true });
  }
}
