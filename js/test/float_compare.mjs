// The comparison of the package's tests against TensorFlow Lite's outputs, as
// tests/ops/test_conformance.c's: NaN matches NaN, equal values (infinities too) match, a NaN
// against a number never does. No Node imports: the browser page (browser/exact.mjs) loads it
// too (served as /test/float_compare.mjs by browser_exact.mjs).

// The distance of got from ref: 0 when they match as above, Infinity when exactly one is NaN,
// else |got - ref|.
export function floatDistance(got, ref) {
  if (Number.isNaN(got) || Number.isNaN(ref)) return Number.isNaN(got) && Number.isNaN(ref) ? 0 : Infinity;
  return got === ref ? 0 : Math.abs(got - ref);
}

// Whether got is within tol of ref (tol 0: equal); false for a NaN against a number, whatever
// tol is (a tolerance computed from a NaN ref is NaN).
export function floatWithin(got, ref, tol) {
  const d = floatDistance(got, ref);
  return d === 0 || d <= tol;
}
