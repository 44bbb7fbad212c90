;;; eglot_driver.el --- drive eglot in batch mode against `dealerpp lsp'  -*- lexical-binding: t -*-
;; Loaded after the init.el of docs/editors.md, with the file to open in
;; $SAMPLE. Prints one line per finding, for tests/editor/test_editors.py.
(require 'eglot)
(require 'flymake)

(defun driver-wait (predicate seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))

(defun driver-diagnostics ()
  (flymake-diagnostics (point-min) (point-max)))

(find-file (getenv "SAMPLE"))
(princ (format "MODE %s\n" major-mode))
;; eglot-ensure connects after the next command; batch mode runs none.
(run-hooks 'post-command-hook)
(princ (format "MANAGED %s\n" (driver-wait (lambda () (bound-and-true-p eglot--managed-mode)) 60)))
(driver-wait #'driver-diagnostics 60)
(dolist (found (driver-diagnostics))
  (princ (format "DIAGNOSTIC %d %s %s\n"
                 (line-number-at-pos (flymake-diagnostic-beg found))
                 (buffer-substring-no-properties (flymake-diagnostic-beg found)
                                                 (flymake-diagnostic-end found))
                 (flymake-diagnostic-type found))))
(goto-char (point-min))
(search-forward "shape{")
(let ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                              (eglot--TextDocumentPositionParams))))
  (princ (format "HOVER %s\n" (replace-regexp-in-string
                               "\n" " " (plist-get (plist-get hover :contents) :value)))))
(goto-char (point-min))
(search-forward "opener &&")
(backward-word)
(let ((where (jsonrpc-request (eglot--current-server-or-lose) :textDocument/definition
                              (eglot--TextDocumentPositionParams))))
  (princ (format "DEFINITION %s\n"
                 (plist-get (plist-get (plist-get (elt where 0) :range) :start) :line))))
;; An edit: `nothing' defined on a new second line; its error goes.
(goto-char (point-min))
(forward-line 1)
(insert "nothing = hcp(south) > 10\n")
(eglot--signal-textDocument/didChange)
(princ (format "AFTER-EDIT %s\n"
               (if (driver-wait (lambda () (null (driver-diagnostics))) 60)
                   0 (length (driver-diagnostics)))))
(kill-emacs 0)
