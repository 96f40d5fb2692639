// Links one PTX file to a cubin with nvJitLink, as pykc's back end does; used by
// prepare.sh for the experiments of docs/BENCHMARKS.md.
//   nvjitlink_ptx IN.ptx OUT.cubin [nvJitLink options, e.g. -arch=sm_90 -O3]
#include <nvJitLink.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s IN.ptx OUT.cubin [options...]\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1]);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string ptx = ss.str();
    std::vector<const char*> opts(argv + 3, argv + argc);
    nvJitLinkHandle h;
    if (nvJitLinkCreate(&h, (uint32_t)opts.size(), opts.data()) != NVJITLINK_SUCCESS)
        return std::fprintf(stderr, "nvJitLinkCreate failed\n"), 3;
    // nvJitLink reads PTX up to its NUL, whatever size it is told.
    if (nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, ptx.c_str(), ptx.size() + 1, argv[1]) != NVJITLINK_SUCCESS ||
        nvJitLinkComplete(h) != NVJITLINK_SUCCESS) {
        size_t n = 0;
        nvJitLinkGetErrorLogSize(h, &n);
        std::string log(n, '\0');
        nvJitLinkGetErrorLog(h, &log[0]);
        return std::fprintf(stderr, "nvJitLink failed:\n%s\n", log.c_str()), 3;
    }
    size_t n = 0;
    nvJitLinkGetLinkedCubinSize(h, &n);
    std::vector<char> cubin(n);
    nvJitLinkGetLinkedCubin(h, cubin.data());
    nvJitLinkDestroy(&h);
    std::ofstream(argv[2], std::ios::binary).write(cubin.data(), (std::streamsize)n);
    return 0;
}
