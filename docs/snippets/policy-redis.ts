// snippet: policy-redis.ts
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import { redisCacheStore, redisCircuitStore, redisLoopGuardStore, redisRateLimitStore } from "@toolware/redis";
import { Redis } from "ioredis";

// The file says `stores: { default: redis://127.0.0.1:6379 }` (or `store:` on one pack): this says how a URL
// becomes stores. It is asked once per URL; a watched policy's reloads reuse what it returned.
const clients: Redis[] = [];
const policy = await loadPolicy("toolware.policy.yaml", {
  connect: {
    redis: (url) => {
      const client = new Redis(url);
      clients.push(client);
      return {
        rateLimit: redisRateLimitStore({ client }),
        cache: redisCacheStore({ client }),
        loopGuard: redisLoopGuardStore({ client }),
        circuitBreaker: redisCircuitStore({ client }),
      };
    },
  },
});
const hooks = new ToolHooks();
hooks.use(policy);
// On shutdown: the policy never closes a connection it did not open.
for (const client of clients) client.disconnect();
