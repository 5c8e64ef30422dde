// Report what the Node runtime offers inside the sandbox.
const grpc = require("@grpc/grpc-js");
const loader = require("@grpc/proto-loader");
const sdk = require.resolve("arena-bot");
console.log("RESULT " + JSON.stringify({grpc: typeof grpc.Server, loader: typeof loader.loadSync, sdk,
                                        node_path: process.env.NODE_PATH}));
