/** Test job: doubles numbers, throws on 'throw', spins forever on 'hang', dies on 'exit', answers 0 after 600 ms on 'slow'. */
export function echo(input: number | string): number | Promise<number> {
  if (input === 'throw') throw new Error('asked to throw');
  if (input === 'hang') for (;;);
  if (input === 'exit') process.exit(3);
  if (input === 'slow') return new Promise((resolve) => setTimeout(() => resolve(0), 600));
  return (input as number) * 2;
}
