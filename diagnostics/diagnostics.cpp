#include "diagnostics/diagnostics.h"

#include <algorithm>

namespace frontend {
namespace {

struct KindInfo {
  std::string_view kind;
  std::string_view format;
};

constexpr KindInfo kKinds[] = {
#define DIAG(Name, Kind, Format) {Kind, Format},
#include "diagnostics/diagnostic_kinds.def"
};

std::string_view severityName(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "error";
}

std::string_view severityColor(Severity s) {
  switch (s) {
  case Severity::Error: return "\033[1;31m";
  case Severity::Warning: return "\033[1;35m";
  case Severity::Note: return "\033[1;36m";
  }
  return "";
}

// The caret line under `lineText` for a 1-based byte column and byte length:
// tabs in the prefix are kept so the caret lines up; a multi-byte character
// takes one column.
std::string caretLine(std::string_view lineText, uint32_t column, uint32_t length) {
  std::string out;
  size_t col0 = column > 0 ? column - 1 : 0;
  if (col0 > lineText.size()) col0 = lineText.size();
  for (size_t i = 0; i < col0; ++i) {
    auto c = static_cast<unsigned char>(lineText[i]);
    if ((c & 0xC0) == 0x80) continue;
    out += c == '\t' ? '\t' : ' ';
  }
  out += '^';
  if (length > 1) {
    size_t end = std::min<size_t>(col0 + length, lineText.size());
    for (size_t i = col0 + 1; i < end; ++i) {
      if ((static_cast<unsigned char>(lineText[i]) & 0xC0) == 0x80) continue;
      out += '~';
    }
  }
  return out;
}

void renderOne(std::string& out, const Diagnostic& d, const RenderOptions& options) {
  const char* bold = options.color ? "\033[1m" : "";
  const char* reset = options.color ? "\033[0m" : "";
  if (d.path.empty()) {
    out += bold;
    out += "pykc: ";
    out += reset;
  } else if (d.line == 0) {
    out += bold;
    out += d.path;
    out += ": ";
    out += reset;
  } else {
    out += bold;
    out += fmt::format("{}:{}:{}: ", d.path, d.line, d.column);
    out += reset;
  }
  if (options.color) out += severityColor(d.severity);
  out += severityName(d.severity);
  out += ':';
  out += reset;
  out += ' ';
  out += d.message;
  if (options.showKinds && d.severity != Severity::Note) {
    out += " [";
    out += kindName(d.kind);
    out += ']';
  }
  out += '\n';
  if (d.line != 0) {
    out += d.lineText;
    out += '\n';
    if (options.color) out += "\033[1;32m";
    out += caretLine(d.lineText, d.column, d.length);
    out += reset;
    out += '\n';
  }
}

}  // namespace

std::string_view kindName(Diag d) { return kKinds[static_cast<size_t>(d)].kind; }
std::string_view formatOf(Diag d) { return kKinds[static_cast<size_t>(d)].format; }

void DiagnosticSink::report(Severity severity, const Location& loc, Diag kind, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.kind = kind;
  d.message = std::move(message);
  d.path = std::string(loc.path);
  d.lineText = std::string(loc.lineText);
  d.line = loc.line;
  d.column = loc.column;
  d.length = loc.length;
  if (severity == Severity::Note) {
    if (!diagnostics_.empty()) diagnostics_.back().notes.push_back(std::move(d));
    return;
  }
  if (severity == Severity::Error) ++errorCount_;
  diagnostics_.push_back(std::move(d));
}

void DiagnosticSink::note(const Location& loc, std::string message) {
  report(Severity::Note, loc, Diag::SyntaxError, std::move(message));
}

void DiagnosticSink::error(Diag kind, std::string message) {
  report(Severity::Error, Location{}, kind, std::move(message));
}

void DiagnosticSink::sortByLocation() {
  std::stable_sort(diagnostics_.begin(), diagnostics_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.path != b.path) return a.path < b.path;
    if (a.line != b.line) return a.line < b.line;
    return a.column < b.column;
  });
}

std::string renderDiagnostic(const Diagnostic& d, const RenderOptions& options) {
  std::string out;
  renderOne(out, d, options);
  for (const Diagnostic& n : d.notes) renderOne(out, n, options);
  out += '\n';
  return out;
}

std::string DiagnosticSink::render(const RenderOptions& options) const {
  std::string out;
  for (const Diagnostic& d : diagnostics_) out += renderDiagnostic(d, options);
  return out;
}

void DiagnosticSink::render(std::FILE* out, const RenderOptions& options) const {
  std::string text = render(options);
  std::fwrite(text.data(), 1, text.size(), out);
}

}  // namespace frontend
