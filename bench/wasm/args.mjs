// Command-line options of the bench/wasm scripts that also take positional arguments:
// takeOpt(args, '--rounds', 60) returns the value after '--rounds' (or the default) and
// removes both from args, so that what is left are the positional ones.
export function takeOpt(args, key, dflt) {
  const i = args.indexOf(key);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}
