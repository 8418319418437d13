// Types of tfcc-wasm (lib/index.mjs).

export type DType =
  | 'float32' | 'float16' | 'int32' | 'uint8' | 'int64' | 'bool' | 'int16' | 'int8'
  | 'float64' | 'uint64' | 'uint32' | 'uint16'
  // one value per byte (Int8Array / Uint8Array); bfloat16 and float8 as raw bits
  // (Uint16Array / Uint8Array)
  | 'int4' | 'int2' | 'uint4' | 'bfloat16' | 'float8_e4m3fn' | 'float8_e5m2';

export type TensorData =
  | Float32Array | Float64Array | Int32Array | Uint32Array | Int16Array | Uint16Array
  | Int8Array | Uint8Array | BigInt64Array | BigUint64Array;

export interface Quantization {
  /** one scale per tensor, or per channel along `axis` */
  scales: number[];
  zeroPoints: number[];
  /** quantized dimension for per-channel parameters, -1 for per-tensor */
  axis: number;
}

export interface TensorInfo {
  name: string;
  dtype: DType;
  shape: number[];
  bytes: number;
  /** null when the tensor is not quantized */
  quantization: Quantization | null;
  /** output whose shape is known only while running (updated after each run) */
  dynamic: boolean;
}

export interface OpProfile {
  node: number;
  op: string;
  kernel: string;
  runs: number;
  /** mean milliseconds per run */
  ms: number;
  macs: number;
}

/** Error thrown by tfcc-wasm; `message` is tfcc's own message. */
export class TfccError extends Error {}

export interface RuntimeOptions {
  /** worker threads including the caller; 1 unless the package was built with threads */
  threads?: number;
  /** cap kernel dispatch: "generic" runs the portable C kernels (A/B checks); default the best */
  isa?: 'wasmsimd' | 'generic';
}

export class Runtime {
  static create(options?: RuntimeOptions): Promise<Runtime>;
  /** threads actually used */
  readonly threads: number;
  /** kernel dispatch level: "wasmsimd" (SIMD128) or "generic" */
  readonly isa: string;
  /** true when the package's relaxed-SIMD binary runs (the engine validates relaxed SIMD). */
  readonly relaxedSimd: boolean;
  /** The int8 / uint8 GEMM kernel dispatch takes ("q8-gemm-4x8-wasmrdot": the relaxed dot
   * product, where its self-check against the SIMD128 kernel passed on this engine). */
  readonly q8Gemm: string;
  /** true when int8 / uint8 GEMMs run the relaxed dot product. */
  readonly relaxedDot: boolean;
  /** The int8 / uint8 depthwise kernel dispatch takes ("q8-dwconv-8-wasmrdot": the relaxed dot
   * product, under the same self-check; "q8-dwconv-16-wasmsimd": SIMD128). */
  readonly q8Dwconv: string;
  /** tfcc version */
  readonly version: string;
  /** Loads a .tflite model: bytes, a URL (fetched), or in Node a file path / file: URL. */
  loadModel(source: Uint8Array | ArrayBuffer | ArrayBufferView | URL | string): Promise<Model>;
  dispose(): void;
}

export class Model {
  readonly runtime: Runtime;
  createSession(): Session;
  /** drops this handle; sessions keep the model alive until they are disposed */
  dispose(): void;
}

export interface RunOptions {
  /** false: outputs are views of the session's buffers in wasm memory (no copy), valid until
   *  the next run, dispose or wasm memory growth. Default true (copies). */
  copy?: boolean;
}

export class Session {
  readonly model: Model;
  readonly inputs: TensorInfo[];
  readonly outputs: TensorInfo[];
  /** Zero-copy input: a view of the input's buffer in wasm memory; fill it, then run(). */
  inputView(key: string | number): TensorData;
  /** Per-operator timing: profile(true) turns it on, profile(false) off; profile() returns the
   *  operators in run order with the mean ms per run since it was turned on. */
  profile(enable?: boolean): OpProfile[];
  /** Runs the model; inputs by name or in input order. Returns every output by name. */
  run(inputs?: Record<string, TensorData> | TensorData[], options?: RunOptions): Record<string, TensorData>;
  dispose(): void;
}

declare const _default: {
  Runtime: typeof Runtime;
  Model: typeof Model;
  Session: typeof Session;
  TfccError: typeof TfccError;
};
export default _default;
