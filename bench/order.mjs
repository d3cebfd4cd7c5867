// The order in which an interleaved benchmark calls its variants in one round: a shuffle drawn
// from a fixed seed, so that over the rounds each variant follows each of the others about as often
// (a call leaves work behind that the next one pays, and what it leaves depends on what it was),
// and two runs of one build use the same orders. Rotating the order and reversing it every
// other round, as the benchmarks did, balances that for three variants but not for four or more:
// in the peers table's four, lpm-client only ever followed the floor or zod.

/** `keys` in round `round`'s order (a Fisher-Yates shuffle; its generator an LCG seeded by the
 * round), never starting with `after`, the last round's last variant (which would follow itself). */
export function roundOrder(keys, round, after) {
  const out = [...keys];
  let x = (round * 2654435761 + 12345) >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const j = (x >>> 16) % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  if (out.length > 1 && out[0] === after) out.push(out.shift());
  return out;
}
