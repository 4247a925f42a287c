// snippet: packs-redact-2.ts
import { redactText } from "@toolware/packs/redact";

const body = JSON.stringify({
  status: 200,
  body: JSON.stringify({ api_key: "k-123456", log: 'login password="hunter2"' }),
  cards: [4111111111111111, 42],
});
const out = redactText(body);
console.log(out);
// {"status":200,"body":"{\"api_key\":\"[REDACTED]\",\"log\":\"login password=\\\"[REDACTED]\\\"\"}","cards":["[CARD-REDACTED]",42]}
console.log(JSON.parse(JSON.parse(out).body)); // { api_key: "[REDACTED]", log: 'login password="[REDACTED]"' }
