// Report what the Node runtime offers inside the sandbox.
const grpc = require("@grpc/grpc-js");
const loader = require("@grpc/proto-loader");
const fs = require("fs");
const path = require("path");
const sdk = require.resolve("arena-bot");
const protos = fs.readdirSync(path.join(path.dirname(sdk), "proto", "arena", "v1")).sort();
console.log("RESULT " + JSON.stringify({grpc: typeof grpc.Server, loader: typeof loader.loadSync, sdk,
                                        node_path: process.env.NODE_PATH, protos}));
