/**
 * The few React 18 APIs the editor page uses, typed by hand because
 * @types/react is not a dependency. Once it is, delete this file: these
 * ambient modules would hide the real types.
 */
declare module 'react' {
  export function useState<T>(initial: T | (() => T)): [T, (next: T | ((previous: T) => T)) => void];
  export function useEffect(effect: () => void | (() => void), deps: readonly unknown[]): void;
  export function useMemo<T>(factory: () => T, deps: readonly unknown[]): T;
  export function useCallback<T extends (...args: never[]) => unknown>(callback: T, deps: readonly unknown[]): T;
  export function useRef<T>(initial: T): { current: T };
}

declare module 'react-dom/client' {
  export interface Root {
    render(children: unknown): void;
  }
  export function createRoot(container: Element): Root;
}

declare module 'react/jsx-runtime' {
  export namespace JSX {
    interface Element {
      readonly type: unknown;
      readonly props: unknown;
    }
    interface ElementChildrenAttribute {
      children: unknown;
    }
    interface IntrinsicAttributes {
      key?: string | number;
    }
    interface IntrinsicElements {
      [tag: string]: { className?: string; children?: unknown; [attribute: string]: unknown };
    }
  }
  export function jsx(type: unknown, props: unknown, key?: string): JSX.Element;
  export function jsxs(type: unknown, props: unknown, key?: string): JSX.Element;
  export const Fragment: unique symbol;
}
