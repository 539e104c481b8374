export const CAPABILITIES = ['read', 'write', 'publish', 'delete'] as const;
export type Capability = (typeof CAPABILITIES)[number];

function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

/** Canonical order, no duplicates. */
export function normaliseCapabilities(values: Iterable<Capability>): Capability[] {
  const set = new Set(values);
  return CAPABILITIES.filter((c) => set.has(c));
}

/** Parses "read,write" (CLI and storage form). Throws on an unknown or empty list. */
export function parseCapabilityList(text: string): Capability[] {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new Error('capabilities must be a non-empty subset of read,write,publish,delete');
  for (const part of parts) {
    if (!isCapability(part)) throw new Error(`unknown capability "${part}" (expected read, write, publish or delete)`);
  }
  return normaliseCapabilities(parts as Capability[]);
}

/** The legacy `scope` field: `read-write` only with all four capabilities, else `read`. */
export function legacyScope(capabilities: readonly Capability[]): 'read-write' | 'read' {
  return CAPABILITIES.every((c) => capabilities.includes(c)) ? 'read-write' : 'read';
}

/** The capabilities an OAuth scope string grants: each scope that names one, in canonical order; other scopes are ignored. */
export function capabilitiesOfScope(scope: string | undefined): Capability[] {
  return normaliseCapabilities((scope ?? '').split(' ').filter(isCapability));
}
