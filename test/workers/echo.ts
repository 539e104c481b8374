/** Test job: doubles numbers, throws on 'throw', spins forever on 'hang', dies on 'exit'. */
export function echo(input: number | string): number {
  if (input === 'throw') throw new Error('asked to throw');
  if (input === 'hang') for (;;);
  if (input === 'exit') process.exit(3);
  return (input as number) * 2;
}
