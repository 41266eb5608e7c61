// An in-memory file system with the callback API of Node's fs, the one Go's
// syscall package uses under GOOS=js (syscall/fs_js.go). Loaded in the
// training worker before wasm_exec.js, which then keeps it instead of its
// stub, so train.Run writes its run folder (config, epochs.jsonl,
// checkpoint, history.json) into memory. Standard output and error go to the
// console, as with wasm_exec.js's stub.
"use strict";
(function () {
  var S_IFDIR = 0o040000, S_IFREG = 0o100000;
  var nodes = { "/": { dir: true, mtime: Date.now() } }; // path -> {dir} or {data: Uint8Array}
  var fds = {}, nextFd = 10;
  var decoder = new TextDecoder("utf-8"), lines = ["", "", ""];
  var C = { O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };

  function err(code) { var e = new Error(code); e.code = code; return e; }
  function norm(p) {
    var out = [];
    p.split("/").forEach(function (s) {
      if (s === "" || s === ".") { return; }
      if (s === "..") { out.pop(); } else { out.push(s); }
    });
    return "/" + out.join("/");
  }
  function parent(p) { var i = p.lastIndexOf("/"); return i <= 0 ? "/" : p.slice(0, i); }
  function stat(n) {
    var size = n.dir ? 0 : n.data.length;
    return { dev: 1, ino: 0, mode: n.dir ? S_IFDIR | 0o755 : S_IFREG | 0o644, nlink: 1, uid: 0, gid: 0, rdev: 0,
      size: size, blksize: 4096, blocks: Math.ceil(size / 512), atimeMs: n.mtime, mtimeMs: n.mtime, ctimeMs: n.mtime,
      isDirectory: function () { return !!n.dir; } };
  }
  function children(p) {
    var prefix = p === "/" ? "/" : p + "/";
    return Object.keys(nodes).filter(function (k) {
      return k !== p && k.indexOf(prefix) === 0 && k.slice(prefix.length).indexOf("/") < 0;
    }).map(function (k) { return k.slice(prefix.length); });
  }
  function lookup(p) { var n = nodes[norm(p)]; if (!n) { throw err("ENOENT"); } return n; }
  function grow(n, end) { // files here are written a few times each: copy, no spare capacity
    if (end <= n.data.length) { return; }
    var d = new Uint8Array(end);
    d.set(n.data);
    n.data = d;
  }
  function console_(fd, buf) {
    lines[fd] += decoder.decode(buf);
    var nl = lines[fd].lastIndexOf("\n");
    if (nl >= 0) { (fd === 2 ? console.warn : console.log)(lines[fd].slice(0, nl)); lines[fd] = lines[fd].slice(nl + 1); }
    return buf.length;
  }
  function call(cb, f) {
    var r;
    try { r = f(); } catch (e) { cb(e.code ? e : err("EIO")); return; }
    cb(null, r);
  }

  var fs = {
    constants: C,
    writeSync: function (fd, buf) { return console_(fd, buf); },
    open: function (path, flags, mode, cb) {
      call(cb, function () {
        var p = norm(path), n = nodes[p];
        if (n && (flags & C.O_CREAT) && (flags & C.O_EXCL)) { throw err("EEXIST"); }
        if (!n) {
          if (!(flags & C.O_CREAT)) { throw err("ENOENT"); }
          var dir = nodes[parent(p)];
          if (!dir) { throw err("ENOENT"); }
          if (!dir.dir) { throw err("ENOTDIR"); }
          n = nodes[p] = { data: new Uint8Array(0), mtime: Date.now() };
        } else if (n.dir && (flags & 3) !== C.O_RDONLY) {
          throw err("EISDIR");
        }
        if (!n.dir && (flags & C.O_TRUNC)) { n.data = new Uint8Array(0); }
        var fd = nextFd++;
        fds[fd] = { path: p, node: n, pos: 0, append: !!(flags & C.O_APPEND) };
        return fd;
      });
    },
    close: function (fd, cb) { call(cb, function () { if (!fds[fd]) { throw err("EBADF"); } delete fds[fd]; }); },
    fsync: function (fd, cb) { cb(null); },
    fstat: function (fd, cb) { call(cb, function () { if (!fds[fd]) { throw err("EBADF"); } return stat(fds[fd].node); }); },
    stat: function (path, cb) { call(cb, function () { return stat(lookup(path)); }); },
    lstat: function (path, cb) { call(cb, function () { return stat(lookup(path)); }); },
    read: function (fd, buf, off, len, pos, cb) {
      call(cb, function () {
        var f = fds[fd];
        if (!f) { throw err("EBADF"); }
        if (f.node.dir) { throw err("EISDIR"); }
        var at = pos === null || pos === undefined ? f.pos : pos;
        var n = Math.max(0, Math.min(len, f.node.data.length - at));
        buf.set(f.node.data.subarray(at, at + n), off);
        if (pos === null || pos === undefined) { f.pos += n; }
        return n;
      });
    },
    write: function (fd, buf, off, len, pos, cb) {
      call(cb, function () {
        if (fd === 1 || fd === 2) { return console_(fd, buf.subarray(off, off + len)); }
        var f = fds[fd];
        if (!f) { throw err("EBADF"); }
        var n = f.node, at = f.append ? n.data.length : (pos === null || pos === undefined ? f.pos : pos);
        grow(n, at + len);
        n.data.set(buf.subarray(off, off + len), at);
        n.mtime = Date.now();
        if (pos === null || pos === undefined) { f.pos = at + len; }
        return len;
      });
    },
    mkdir: function (path, perm, cb) {
      call(cb, function () {
        var p = norm(path);
        if (nodes[p]) { throw err("EEXIST"); }
        var dir = nodes[parent(p)];
        if (!dir) { throw err("ENOENT"); }
        if (!dir.dir) { throw err("ENOTDIR"); }
        nodes[p] = { dir: true, mtime: Date.now() };
      });
    },
    readdir: function (path, cb) {
      call(cb, function () { if (!lookup(path).dir) { throw err("ENOTDIR"); } return children(norm(path)); });
    },
    rename: function (from, to, cb) {
      call(cb, function () {
        var a = norm(from), b = norm(to), n = lookup(a);
        if (n.dir) { throw err("EPERM"); } // run folders rename files only
        if (!nodes[parent(b)]) { throw err("ENOENT"); }
        if (nodes[b] && nodes[b].dir) { throw err("EISDIR"); }
        nodes[b] = n;
        delete nodes[a];
      });
    },
    unlink: function (path, cb) {
      call(cb, function () { var p = norm(path); if (lookup(p).dir) { throw err("EISDIR"); } delete nodes[p]; });
    },
    rmdir: function (path, cb) {
      call(cb, function () {
        var p = norm(path);
        if (!lookup(p).dir) { throw err("ENOTDIR"); }
        if (children(p).length) { throw err("ENOTEMPTY"); }
        delete nodes[p];
      });
    },
    ftruncate: function (fd, len, cb) {
      call(cb, function () {
        var f = fds[fd];
        if (!f) { throw err("EBADF"); }
        var d = new Uint8Array(len);
        d.set(f.node.data.subarray(0, Math.min(len, f.node.data.length)));
        f.node.data = d;
      });
    },
    truncate: function (path, len, cb) { cb(err("ENOSYS")); },
    chmod: function (path, mode, cb) { call(cb, function () { lookup(path); }); },
    fchmod: function (fd, mode, cb) { cb(null); },
    chown: function (p, u, g, cb) { cb(null); },
    fchown: function (fd, u, g, cb) { cb(null); },
    lchown: function (p, u, g, cb) { cb(null); },
    utimes: function (p, a, m, cb) { cb(null); },
    link: function (p, l, cb) { cb(err("ENOSYS")); },
    symlink: function (p, l, cb) { cb(err("ENOSYS")); },
    readlink: function (p, cb) { cb(err("EINVAL")); }
  };
  globalThis.fs = fs;
})();
