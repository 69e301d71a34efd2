import { sameScopes, type KindDescriptor } from '../shared/descriptor';
import { titleOf } from './marker';

// scopes: integrations Create, Update, Delete, Enable, Disable | BatchGet, List (src/client/services/ROUTES.md)
export const integrationDescriptor: KindDescriptor = {
  type: 'dq_integration',
  label: 'integration',
  // the platform assigns the id; dqform's identity rides in the title's marker (./marker.ts)
  identity: { key: 'id', derivedUuid: false },
  ownership: 'idTag',
  concurrency: 'etag',
  // no varSuffix: nothing references an integration, so imported code never names one in a variable
  construct: { className: 'Integration' },
  scopes: sameScopes(['SCOPE_INTEGRATION_EDIT'], ['SCOPE_INTEGRATION_READ', 'SCOPE_INTEGRATION_EDIT']),
  describe: (raw) => `integration ${JSON.stringify(titleOf(raw.title))}`,
  // imported code names an integration after its title without the marker
  namedAfter: (raw) => titleOf(raw.title),
};
