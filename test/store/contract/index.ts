import { describe } from 'node:test';
import type { Store } from '../../../src/store/store.ts';
import { accountsContract } from './accounts.ts';
import { contentWritesContract } from './content-writes.ts';
import { diagramListsContract } from './diagram-lists.ts';
import { diagramsContract } from './diagrams.ts';
import { contractContext } from './fixtures.ts';
import { foldersContract } from './folders.ts';
import { historyContract } from './history.ts';
import { oauthContract } from './oauth.ts';
import { operationsContract } from './operations.ts';
import { publicLinksContract } from './public-links.ts';
import { rateLimitsContract } from './rate-limits.ts';
import { sessionsContract } from './sessions.ts';
import { sharingContract, sharingManagementContract } from './sharing.ts';
import { tokensContract } from './tokens.ts';
import { unitOfWorkContract } from './unit-of-work.ts';

/**
 * The storage contract: every rule a Store implementation must keep, one file
 * per aggregate and one for the unit of work, run against each engine. Each
 * test opens a fresh store and closes it, so no test sees another's rows.
 */
export function defineStoreContract(engineName: string, open: () => Promise<Store>): void {
  const context = contractContext(engineName, open);
  describe(`${engineName} store contract`, () => {
    operationsContract(context);
    accountsContract(context);
    sessionsContract(context);
    tokensContract(context);
    sharingContract(context);
    sharingManagementContract(context);
    diagramsContract(context);
    diagramListsContract(context);
    contentWritesContract(context);
    historyContract(context);
    foldersContract(context);
    publicLinksContract(context);
    unitOfWorkContract(context);
    rateLimitsContract(context);
    oauthContract(context);
  });
}
