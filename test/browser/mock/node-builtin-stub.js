// Stands in for the Node built-ins PGlite imports dynamically on its Node-only paths (file system data
// directories, gzip dumps). In the browser those paths never run, but web-test-runner must resolve them.
export default {};
