import { AUDIT_MASK } from '@wadesk/contracts';

/**
 * Field names whose values never reach the audit log: passwords and their hashes, tokens (the API token, Cloud API
 * and Instagram tokens, refresh tokens), secrets (webhooks', the Meta app's, MFA's), private and API keys, and
 * recovery codes. Matched on the name, at any depth.
 */
const SECRET_NAME = /pass(word)?|hash|secret|token|apikey|api_key|privatekey|private_key|recovery|otp|mfa_?secret/i;

/** Settings whose value is a secret (read back masked) or the API token. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A copy of `value` with every secret field's value replaced by '***' (null and '' stay as they are: "none set"). */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
        key,
        isSecretName(key) && inner !== null && inner !== '' && inner !== undefined ? AUDIT_MASK : maskSecrets(inner),
      ]),
    );
  }
  return value;
}
