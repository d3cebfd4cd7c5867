// Passwords for rows that have none (`--generate-passwords` of the command line, the dashboard's
// bulk screen): 12 characters drawn uniformly by the platform's CSPRNG from letters and digits
// that cannot be misread on a printed sheet (no 0/O, 1/l/I), about 69 bits; within the
// platform's documented 6-35 characters, letters and digits only.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PASSWORD_LENGTH = 12;

/** One random password. */
export function randomPassword() {
  let out = '';
  const bytes = new Uint8Array(32);
  while (out.length < PASSWORD_LENGTH) {
    globalThis.crypto.getRandomValues(bytes);
    // Rejection sampling: bytes past the largest multiple of the alphabet's size are dropped, so
    // every character is equally likely.
    const limit = 256 - (256 % ALPHABET.length);
    for (const b of bytes) if (b < limit && out.length < PASSWORD_LENGTH) out += ALPHABET[b % ALPHABET.length];
  }
  return out;
}
