#pragma once
// A Python source file decoded to UTF-8, with a line table for locations.
#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace frontend {

class DiagnosticSink;

// A position in a source file, ready to render (STYLE.md §2). `column` is
// 1-based and counts UTF-8 bytes; `length` is in bytes (0 or 1 for a caret).
// The views point into the SourceFile, which must outlive the location.
struct Location {
  std::string_view path;
  std::string_view lineText;  // without the line break
  uint32_t line = 0;           // 1-based; 0: no position in a file
  uint32_t column = 0;         // 1-based, in bytes
  uint32_t length = 0;
};

// Source text after CPython's decoding rules: UTF-8 BOM removed, a PEP 263
// coding cookie applied, line breaks (\r\n, \r) normalised to \n.
class SourceFile {
public:
  // Decodes `bytes` read from `path`. Decoding problems CPython reports as
  // SyntaxError (unknown codec, invalid UTF-8, NUL bytes, BOM with a non-UTF-8
  // cookie) are reported to `diags`; the returned file then has `decodeFailed()`
  // true and its text holds what could be decoded (possibly nothing).
  static SourceFile fromBytes(std::string path, std::string_view bytes, DiagnosticSink& diags);

  // Reads and decodes the file at `path`. Fails only when the file cannot be
  // read (the error says why); decoding problems go to `diags` as above.
  static llvm::Expected<SourceFile> load(const std::string& path, DiagnosticSink& diags);

  // A run of lines of a spliced file (helpers from other modules pasted into a kernel's
  // file, driver/sibling_modules.h): its lines from `firstLine` on are `path`'s lines
  // from `originalLine` on.
  struct Segment {
    uint32_t firstLine = 1;
    std::string path;
    uint32_t originalLine = 1;
  };
  // `text` (already decoded, \n line breaks) named `path`, whose locations map back
  // through `segments` (sorted by firstLine, the first at line 1).
  static SourceFile spliced(std::string path, std::string text, std::vector<Segment> segments);
  const std::vector<Segment>& segments() const { return segments_; }

  // The path as given by the user.
  const std::string& path() const { return path_; }
  // The decoded UTF-8 text (line breaks are \n).
  std::string_view text() const { return text_; }
  // Offsets (in text()) of bytes that were not valid UTF-8 in a file without
  // a non-UTF-8 coding cookie. CPython only rejects them inside tokens (a
  // comment may hold anything), so decoding keeps going: each such byte
  // reads as '?' in text(), and rawText() has the original bytes at the same
  // offsets. Sorted; empty for valid files.
  const std::vector<uint32_t>& invalidBytes() const { return invalidBytes_; }
  std::string_view rawText() const { return invalidBytes_.empty() ? std::string_view(text_) : std::string_view(raw_); }
  // The codec applied ("utf-8" unless a cookie said otherwise).
  const std::string& encoding() const { return encoding_; }
  bool decodeFailed() const { return decodeFailed_; }

  // Number of lines (a final line without \n counts; an empty file has 1).
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }
  // Byte offset in text() where 1-based `line` starts.
  uint32_t lineStart(uint32_t line) const { return lineStarts_[line - 1]; }
  // The text of 1-based `line`, without its \n.
  std::string_view lineText(uint32_t line) const;
  // The 1-based line holding byte `offset` (offset == size() is the last line).
  uint32_t lineOf(uint32_t offset) const;
  // A location for byte `offset` spanning `length` bytes.
  Location locationAt(uint32_t offset, uint32_t length = 1) const;
  // A location for 1-based `line` and 1-based byte `column`.
  Location location(uint32_t line, uint32_t column, uint32_t length = 1) const;

private:
  SourceFile() = default;
  void buildLineTable();

  std::string path_;
  std::string text_;
  std::string encoding_ = "utf-8";
  bool decodeFailed_ = false;
  std::vector<uint32_t> lineStarts_;
  std::vector<uint32_t> invalidBytes_;
  std::string raw_;
  std::vector<Segment> segments_;
};

// The first UTF-8 error in `bytes` as CPython's decoder words it: its byte
// offset and reason ("invalid start byte", "invalid continuation byte",
// "unexpected end of data"); false when `bytes` is valid UTF-8.
bool findUtf8Error(std::string_view bytes, size_t* offset, const char** reason);

// Appends `cp` as UTF-8; surrogates (U+D800..U+DFFF) as 3-byte sequences (as
// CPython's string literals and codecs keep them).
void appendUtf8(std::string& out, uint32_t cp);

// The number of UTF-8 code points in `s` (bytes that do not start a sequence
// are not counted).
uint32_t countCodePoints(std::string_view s);

}  // namespace frontend
