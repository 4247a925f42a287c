// Call ids are the base-36 call count (at least two digits) after a per-process prefix.
// Number#toString(36) costs as much as building the whole context, so the two low digits come
// from a table and the rest changes once every 1,296 calls. Ids made in batches (a 1,296-string
// array filled at once) cost no fewer instructions: each id is still one concatenation, and the
// batch's strings live long enough to be copied by the young-generation collector.

const callPrefix = Math.random().toString(36).slice(2, 8);
const LOW_DIGITS = Array.from({ length: 1296 }, (_, i) => i.toString(36).padStart(2, "0"));
let low = 0;
let high = 0;
let head = `${callPrefix}-`;

/** A fresh call id: unique in the process, `<prefix>-<base-36 count of at least two digits>`. @internal */
export function nextCallId(): string {
  if (low === 1296) {
    low = 0;
    head = `${callPrefix}-${(++high).toString(36)}`;
  }
  return head + (LOW_DIGITS[low++] as string);
}
