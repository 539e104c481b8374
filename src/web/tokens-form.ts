/** The mint form of the API tokens page, read into what minting needs (pure; the clock is passed in). */
import { CAPABILITIES, type Capability } from '../auth/capabilities.ts';
import { tokenName } from '../app/tokens/mint-token.ts';
import type { Form } from './accounts/forms.ts';

export const EXPIRY_CHOICES = ['30', '60', '90', 'date', 'none'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface MintChoice {
  name: string;
  capabilities: Capability[];
  expiresAt: string | null;
}

export type MintFormResult = { ok: true; choice: MintChoice } | { ok: false; problem: string };

/** The checkbox field of a capability. */
export const capabilityField = (capability: Capability) => `cap-${capability}`;

/**
 * The end of the chosen day (UTC) for a `YYYY-MM-DD` date: the token works
 * through that day. Null for text that is not a calendar date.
 */
export function endOfDay(date: string): Date | null {
  const match = DATE.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(Date.UTC(year, month - 1, day));
  if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day) return null;
  return new Date(start.getTime() + DAY_MS);
}

export function readMintForm(form: Form, now: Date): MintFormResult {
  const name = tokenName(form.name ?? '');
  if (!name) return { ok: false, problem: 'Give the token a name, so that you can tell it from the others later.' };
  // Any non-empty subset of the four capabilities: no capability implies another.
  const capabilities = CAPABILITIES.filter((c) => form[capabilityField(c)] !== undefined);
  if (capabilities.length === 0) return { ok: false, problem: 'Choose at least one capability.' };

  const expires = form.expires as ExpiryChoice | undefined;
  let expiresAt: string | null;
  switch (expires) {
    case '30':
    case '60':
    case '90':
      expiresAt = new Date(now.getTime() + Number(expires) * DAY_MS).toISOString();
      break;
    case 'none':
      expiresAt = null;
      break;
    case 'date': {
      const end = endOfDay(form.expiresOn ?? '');
      if (!end) return { ok: false, problem: 'Pick the date on which the token should stop working.' };
      if (end.getTime() <= now.getTime()) return { ok: false, problem: 'Pick an expiry date from today on.' };
      expiresAt = end.toISOString();
      break;
    }
    default:
      return { ok: false, problem: 'Choose when the token expires.' };
  }
  return { ok: true, choice: { name, capabilities, expiresAt } };
}
