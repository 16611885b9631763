/** Keys never reach errors or logs, even when a provider echoes them back. */

export type Redact = <T>(value: T) => T;

export function makeRedactor(secret: string | undefined): Redact {
  // Short values would redact ordinary words; real keys are long.
  if (!secret || secret.length < 8) return (v) => v;
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') return v.split(secret).join('[redacted]');
    if (Array.isArray(v)) return v.map(scrub);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (k !== '__proto__') out[k] = scrub(x);
      return out;
    }
    return v;
  };
  return scrub as Redact;
}
