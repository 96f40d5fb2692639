// NVRTC peer for the compile benchmark: reads a .cu file, compiles it with NVRTC to a
// cubin for one architecture, and writes the cubin. The whole process is what is timed,
// as for pykc and nvcc.
//
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include nvrtc_driver.cpp \
//       -L/usr/local/cuda/lib64 -lnvrtc -Wl,-rpath,/usr/local/cuda/lib64 -o nvrtc_driver
//   nvrtc_driver kernels.cu out.cubin [--arch sm_90] [extra NVRTC options...]
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static void check(nvrtcResult r, const char* what)
{
    if (r != NVRTC_SUCCESS) {
        std::fprintf(stderr, "nvrtc_driver: %s: %s\n", what, nvrtcGetErrorString(r));
        std::exit(3);
    }
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s FILE.cu OUT.cubin [--arch sm_90] [NVRTC options...]\n", argv[0]);
        return 2;
    }
    std::string arch = "sm_90";
    std::vector<std::string> extra;
    for (int i = 3; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--arch" && i + 1 < argc)
            arch = argv[++i];
        else
            extra.push_back(a);
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "nvrtc_driver: cannot read %s\n", argv[1]);
        return 3;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    std::string src = ss.str();

    nvrtcProgram prog;
    check(nvrtcCreateProgram(&prog, src.c_str(), argv[1], 0, nullptr, nullptr), "create");
    std::vector<std::string> opts = {"-arch=" + arch, "-default-device"};
    for (auto& e : extra) opts.push_back(e);
    std::vector<const char*> copts;
    for (auto& o : opts) copts.push_back(o.c_str());
    nvrtcResult res = nvrtcCompileProgram(prog, (int)copts.size(), copts.data());
    size_t logSize = 0;
    nvrtcGetProgramLogSize(prog, &logSize);
    if (logSize > 1) {
        std::string log(logSize, '\0');
        nvrtcGetProgramLog(prog, &log[0]);
        std::fprintf(stderr, "%s", log.c_str());
    }
    check(res, "compile");
    size_t cubinSize = 0;
    check(nvrtcGetCUBINSize(prog, &cubinSize), "cubin size");
    std::vector<char> cubin(cubinSize);
    check(nvrtcGetCUBIN(prog, cubin.data()), "cubin");
    nvrtcDestroyProgram(&prog);
    std::ofstream out(argv[2], std::ios::binary);
    out.write(cubin.data(), (std::streamsize)cubin.size());
    if (!out) {
        std::fprintf(stderr, "nvrtc_driver: cannot write %s\n", argv[2]);
        return 3;
    }
    return 0;
}
