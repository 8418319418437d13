// --pre-js of the threads build (js/CMakeLists.txt): Emscripten's Node branch calls require and
// reads __dirname, which an ES module lacks. lib/index.mjs passes both (nodeRequire, nodeDirname);
// in a pthread's worker (tfcc-core.worker.cjs, CommonJS) require is the global the worker script
// sets. In browsers both stay undefined and the Node branch is not taken.
var require = Module['nodeRequire'] || globalThis['require'];
var __dirname = Module['nodeDirname'] || '';
