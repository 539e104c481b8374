/** The `color-name` package: every CSS colour name with its [r, g, b]. */
declare module 'color-name' {
  const colors: Record<string, [number, number, number]>;
  export default colors;
}
