declare module "koa-compose" {
  type Middleware<T> = (context: T, next: () => Promise<void>) => unknown;
  function compose<T>(middleware: Middleware<T>[]): (context: T, next?: () => unknown) => Promise<void>;
  export default compose;
}
