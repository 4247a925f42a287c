// The proxy behind `ctx.toolInput`: hooks mutate the input in place, and the context learns that
// they did (for the trace's `modified-input`) without copying or diffing it.

function isTrackable(value: unknown): value is object {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Wraps `target` (and the plain objects inside it) so that every change bumps `ctx._inputVersion`. @internal */
export function trackInput<T extends object>(target: T, ctx: { _inputVersion: number }): T {
  if (!isTrackable(target)) return target;
  const nested = new WeakMap<object, object>();
  const targets = new WeakMap<object, object>();
  // A proxy must never end up inside the input the tool receives (structuredClone rejects proxies).
  const unwrap = (value: unknown): unknown =>
    typeof value === "object" && value !== null ? (targets.get(value) ?? value) : value;
  const handler: ProxyHandler<object> = {
    get: (obj, key, receiver) => {
      const value = Reflect.get(obj, key, receiver);
      if (!isTrackable(value)) return value;
      let proxy = nested.get(value);
      if (proxy === undefined) {
        proxy = new Proxy(value, handler);
        nested.set(value, proxy);
        targets.set(proxy, value);
      }
      return proxy;
    },
    set: (obj, key, value) => {
      ctx._inputVersion++;
      // `input.__proto__ = x` (or Object.assign of parsed JSON) must add data, never swap the prototype.
      if (key === "__proto__") {
        return Reflect.defineProperty(obj, key, {
          value: unwrap(value),
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
      return Reflect.set(obj, key, unwrap(value));
    },
    setPrototypeOf: () => false,
    deleteProperty: (obj, key) => {
      ctx._inputVersion++;
      return Reflect.deleteProperty(obj, key);
    },
    defineProperty: (obj, key, desc) => {
      ctx._inputVersion++;
      // A non-configurable property must keep the exact value it was defined with (a proxy invariant).
      const clean = "value" in desc && desc.configurable === true ? { ...desc, value: unwrap(desc.value) } : desc;
      return Reflect.defineProperty(obj, key, clean);
    },
  };
  const root = new Proxy(target, handler);
  targets.set(root, target);
  return root as T;
}
