# ARGS: --diag-kinds inspect %s --emit sass
"""`--emit sass`: nvdisasm's SASS with the Python line above its code."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: // ==== kernel scale ====
# CHECK:STDOUT: 	.target	sm_90
# CHECK:STDOUT:
# CHECK:STDOUT: 	.elftype	@"ET_EXEC"
# CHECK:STDOUT:
# CHECK:STDOUT:
# CHECK:STDOUT: //--------------------- .text.scale__f32a1C_f32   --------------------------
# CHECK:STDOUT: 	.section	.text.scale__f32a1C_f32,"ax",@progbits
# CHECK:STDOUT: 	.align	128
# CHECK:STDOUT:         .global         scale__f32a1C_f32
# CHECK:STDOUT:         .type           scale__f32a1C_f32,@function
# CHECK:STDOUT:         .size           scale__f32a1C_f32,(.L_x_3 - scale__f32a1C_f32)
# CHECK:STDOUT:         .other          scale__f32a1C_f32,@"STO_CUDA_ENTRY STV_DEFAULT"
# CHECK:STDOUT: scale__f32a1C_f32:
# CHECK:STDOUT: .text.scale__f32a1C_f32:
# CHECK:STDOUT: 	// sass.py:7  def scale(x, a):
# CHECK:STDOUT:         /*0000*/                   LDC R1, c[0x0][0x28] ;
# CHECK:STDOUT: 	// sass.py:8  i = cuda.grid(1)
# CHECK:STDOUT:         /*0010*/                   S2R R2, SR_TID.X ;
# CHECK:STDOUT:         /*0020*/                   S2UR UR4, SR_CTAID.X ;
# CHECK:STDOUT:         /*0030*/                   IMAD.MOV.U32 R3, RZ, RZ, RZ ;
# CHECK:STDOUT:         /*0040*/                   LDC R5, c[0x0][RZ] ;
# CHECK:STDOUT:         /*0050*/                   IMAD.WIDE.U32 R2, R5, UR4, R2 ;
# CHECK:STDOUT: 	// sass.py:9  if i < x.size:
# CHECK:STDOUT:         /*0060*/                   ULDC.64 UR4, c[0x0][0x218] ;
# CHECK:STDOUT:         /*0070*/                   ISETP.GE.U32.AND P0, PT, R2, UR4, PT ;
# CHECK:STDOUT:         /*0080*/                   ISETP.GE.AND.EX P0, PT, R3, UR5, PT, P0 ;
# CHECK:STDOUT:         /*0090*/                   ULDC.64 UR4, c[0x0][0x210] ;
# CHECK:STDOUT:         /*00a0*/                   LEA R4, P1, R2, UR4, 0x2 ;
# CHECK:STDOUT:         /*00b0*/                   LEA.HI.X R5, R2, UR5, R3, 0x2, P1 ;
# CHECK:STDOUT: .L_x_1:
# CHECK:STDOUT:         /*00c0*/               @P0 EXIT ;
# CHECK:STDOUT:         /*00d0*/                   ULDC.64 UR4, c[0x0][0x208] ;
# CHECK:STDOUT: 	// sass.py:10  x[i] = x[i] * a
# CHECK:STDOUT:         /*00e0*/                   ULDC UR6, c[0x0][0x228] ;
# CHECK:STDOUT:         /*00f0*/                   LDG.E R0, desc[UR4][R4.64] ;
# CHECK:STDOUT:         /*0100*/                   FMUL R3, R0, UR6 ;
# CHECK:STDOUT:         /*0110*/                   STG.E desc[UR4][R4.64], R3 ;
# CHECK:STDOUT: .L_x_2:
# CHECK:STDOUT: 	// sass.py:7  def scale(x, a):
# CHECK:STDOUT:         /*0120*/                   EXIT ;
# CHECK:STDOUT: .L_x_0:
# CHECK:STDOUT:         /*0130*/                   BRA `(.L_x_0);
# CHECK:STDOUT:         /*0140*/                   NOP;
# CHECK:STDOUT:         /*0150*/                   NOP;
# CHECK:STDOUT:         /*0160*/                   NOP;
# CHECK:STDOUT:         /*0170*/                   NOP;
# CHECK:STDOUT:         /*0180*/                   NOP;
# CHECK:STDOUT:         /*0190*/                   NOP;
# CHECK:STDOUT:         /*01a0*/                   NOP;
# CHECK:STDOUT:         /*01b0*/                   NOP;
# CHECK:STDOUT:         /*01c0*/                   NOP;
# CHECK:STDOUT:         /*01d0*/                   NOP;
# CHECK:STDOUT:         /*01e0*/                   NOP;
# CHECK:STDOUT:         /*01f0*/                   NOP;
# CHECK:STDOUT: .L_x_3:
# CHECK:STDOUT:
# CHECK:STDOUT:
# CHECK:STDOUT: //--------------------- SYMBOLS --------------------------
# CHECK:STDOUT:
# CHECK:STDOUT: 	.type		.nv.reservedSmem.offset0,@object
# CHECK:STDOUT: 	.size		.nv.reservedSmem.offset0,0x4
# CHECK:STDOUT: // ==== kernel fill ====
# CHECK:STDOUT: 	.target	sm_90
# CHECK:STDOUT:
# CHECK:STDOUT: 	.elftype	@"ET_EXEC"
# CHECK:STDOUT:
# CHECK:STDOUT:
# CHECK:STDOUT: //--------------------- .text.fill__i32a1C        --------------------------
# CHECK:STDOUT: 	.section	.text.fill__i32a1C,"ax",@progbits
# CHECK:STDOUT: 	.align	128
# CHECK:STDOUT:         .global         fill__i32a1C
# CHECK:STDOUT:         .type           fill__i32a1C,@function
# CHECK:STDOUT:         .size           fill__i32a1C,(.L_x_2 - fill__i32a1C)
# CHECK:STDOUT:         .other          fill__i32a1C,@"STO_CUDA_ENTRY STV_DEFAULT"
# CHECK:STDOUT: fill__i32a1C:
# CHECK:STDOUT: .text.fill__i32a1C:
# CHECK:STDOUT: 	// sass.py:14  def fill(x):
# CHECK:STDOUT:         /*0000*/                   LDC R1, c[0x0][0x28] ;
# CHECK:STDOUT: 	// sass.py:15  x[cuda.grid(1)] = 7
# CHECK:STDOUT:         /*0010*/                   S2UR UR4, SR_CTAID.X ;
# CHECK:STDOUT:         /*0020*/                   S2R R5, SR_TID.X ;
# CHECK:STDOUT:         /*0030*/                   ULDC UR5, c[0x0][0x0] ;
# CHECK:STDOUT:         /*0040*/                   ULDC.64 UR6, c[0x0][0x210] ;
# CHECK:STDOUT:         /*0050*/                   HFMA2.MMA R7, -RZ, RZ, 0, 4.[[HASH]]-07 ;
# CHECK:STDOUT:         /*0060*/                   UIMAD.WIDE.U32 UR4, UR4, UR5, URZ ;
# CHECK:STDOUT:         /*0070*/                   ULEA UR6, UP0, UR4, UR6, 0x2 ;
# CHECK:STDOUT:         /*0080*/                   ULEA.HI.X UR4, UR4, UR7, UR5, 0x2, UP0 ;
# CHECK:STDOUT:         /*0090*/                   MOV R2, UR6 ;
# CHECK:STDOUT:         /*00a0*/                   MOV R3, UR4 ;
# CHECK:STDOUT:         /*00b0*/                   ULDC.64 UR4, c[0x0][0x208] ;
# CHECK:STDOUT:         /*00c0*/                   IMAD.WIDE.U32 R2, R5, 0x4, R2 ;
# CHECK:STDOUT:         /*00d0*/                   STG.E desc[UR4][R2.64], R7 ;
# CHECK:STDOUT: .L_x_1:
# CHECK:STDOUT: 	// sass.py:14  def fill(x):
# CHECK:STDOUT:         /*00e0*/                   EXIT ;
# CHECK:STDOUT: .L_x_0:
# CHECK:STDOUT:         /*00f0*/                   BRA `(.L_x_0);
# CHECK:STDOUT:         /*0100*/                   NOP;
# CHECK:STDOUT:         /*0110*/                   NOP;
# CHECK:STDOUT:         /*0120*/                   NOP;
# CHECK:STDOUT:         /*0130*/                   NOP;
# CHECK:STDOUT:         /*0140*/                   NOP;
# CHECK:STDOUT:         /*0150*/                   NOP;
# CHECK:STDOUT:         /*0160*/                   NOP;
# CHECK:STDOUT:         /*0170*/                   NOP;
# CHECK:STDOUT: .L_x_2:
# CHECK:STDOUT:
# CHECK:STDOUT:
# CHECK:STDOUT: //--------------------- SYMBOLS --------------------------
# CHECK:STDOUT:
# CHECK:STDOUT: 	.type		.nv.reservedSmem.offset0,@object
# CHECK:STDOUT: 	.size		.nv.reservedSmem.offset0,0x4
