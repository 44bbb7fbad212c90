-- Drive Neovim's built-in client headless against `dealerpp lsp`: loaded
-- after the init.lua of docs/editors.md, with the file to open in $SAMPLE.
-- Prints one line per finding, for tests/editor/test_editors.py.
local function say(text) io.stdout:write(text .. "\n") end

vim.cmd("edit " .. os.getenv("SAMPLE"))
local buffer = vim.api.nvim_get_current_buf()
say("FILETYPE " .. vim.bo.filetype)
vim.wait(60000, function() return #vim.diagnostic.get(buffer) > 0 end, 50)
for _, found in ipairs(vim.diagnostic.get(buffer)) do
  local line = vim.api.nvim_buf_get_lines(buffer, found.lnum, found.lnum + 1, false)[1]
  -- Columns are byte offsets (Neovim converts the server's UTF-16 units).
  say(string.format("DIAGNOSTIC %d %s %d", found.lnum + 1,
                    line:sub(found.col + 1, found.end_col), found.severity))
end

local function position_of(pattern)
  for number, line in ipairs(vim.api.nvim_buf_get_lines(buffer, 0, -1, false)) do
    local column = line:find(pattern, 1, true)
    if column then return { line = number - 1, character = column - 1 } end
  end
end

local uri = vim.uri_from_bufnr(buffer)
local hover = vim.lsp.buf_request_sync(buffer, "textDocument/hover",
  { textDocument = { uri = uri }, position = position_of("shape{") }, 30000)
for _, answer in pairs(hover or {}) do
  if answer.result then say("HOVER " .. answer.result.contents.value:gsub("\n", " ")) end
end
local place = position_of("opener &&")
local definition = vim.lsp.buf_request_sync(buffer, "textDocument/definition",
  { textDocument = { uri = uri }, position = place }, 30000)
for _, answer in pairs(definition or {}) do
  if answer.result and answer.result[1] then
    say("DEFINITION " .. answer.result[1].range.start.line)
  end
end
-- An edit: `nothing` defined on a new second line; its error goes.
vim.api.nvim_buf_set_lines(buffer, 1, 1, false, { "nothing = hcp(south) > 10" })
local cleared = vim.wait(60000, function() return #vim.diagnostic.get(buffer) == 0 end, 50)
say("AFTER-EDIT " .. (cleared and 0 or #vim.diagnostic.get(buffer)))
vim.cmd("qall!")
