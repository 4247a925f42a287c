declare module "koa-compose" {
  type Middleware<T> = (context: T, next: () => Promise<void>) => unknown;
  // The composed function is a middleware itself: its `next` is called like one, with the context.
  function compose<T>(middleware: Middleware<T>[]): (context: T, next?: Middleware<T>) => Promise<void>;
  export default compose;
}
