/**
 * Secrets never reach errors or logs, even when a provider echoes them back: the API key, an
 * AWS secret and session token, and every access token a getToken() hands out (added as they come).
 */

export type Redact = (<T>(value: T) => T) & {
  /** Scrub this value too from now on (a token fetched per request). */
  add?: (secret: string | undefined) => void;
};

export function makeRedactor(...initial: Array<string | undefined>): Redact {
  const secrets: string[] = [];
  const add = (secret: string | undefined): void => {
    // Short values would redact ordinary words; real keys are long.
    if (secret && secret.length >= 8 && !secrets.includes(secret)) secrets.push(secret);
  };
  for (const s of initial) add(s);
  const scrubText = (s: string): string => {
    for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join('[redacted]');
    return s;
  };
  const scrub = (v: unknown): unknown => {
    if (secrets.length === 0) return v;
    if (typeof v === 'string') return scrubText(v);
    if (Array.isArray(v)) return v.map(scrub);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (k !== '__proto__') out[k] = scrub(x);
      return out;
    }
    return v;
  };
  return Object.assign(scrub as <T>(value: T) => T, { add });
}
